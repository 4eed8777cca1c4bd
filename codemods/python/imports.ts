import type { Edit } from '../../rules/contract/apply-edits.js';
import { named } from '../../rules/python/tree.js';
import type { Node } from '../../rules/python/parser.js';
import type { IsortSettings } from './project.js';
import { STDLIB_MODULES } from './stdlib-modules.js';


type Section = 0 | 1 | 2 | 3 | 4;
const FUTURE: Section = 0;
const STDLIB: Section = 1;
const THIRD_PARTY: Section = 2;
const FIRST_PARTY: Section = 3;
const LOCAL: Section = 4;

interface ImportName {
  name: string;
  alias: string | null;
}

interface Statement {
  node: Node;
  from: boolean;
  module: string;
  names: ImportName[];
  section: Section;
}

/** The sort key of a name, as ruff's isort orders them (`order-by-type`: CONSTANTS, Classes, functions; `length-sort`). */
function memberKey(name: string, settings: IsortSettings): (string | number)[] {
  const type = name.length > 1 && name === name.toUpperCase() ? 0 : /^[A-Z]/.test(name) ? 1 : 2;
  return [type, settings.lengthSort ? name.length : 0, name.toLowerCase(), name];
}

function moduleKey(module: string, settings: IsortSettings): (string | number)[] {
  return [settings.lengthSort ? module.length : 0, module.toLowerCase(), module];
}

function compare(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return a.length - b.length;
}

/**
 * The module's top-level imports, and the edits that add the few a drain needs, each where ruff's
 * isort puts it (its section, its sorted place, `from` names merged into the module's existing
 * `from` import), so that the file stays clean under ruff's `I` rules.
 */
export class ModuleImports {
  private readonly statements: Statement[] = [];
  /** The leading import block: the imports before the first other statement. */
  private readonly block: Statement[] = [];
  /** New import lines: `import module`, or `from module import names` (names merged, sorted when written). */
  private readonly added: { module: string; from: boolean; names: string[]; section: Section }[] = [];
  private readonly merged = new Map<Statement, string[]>();
  /** Where an import goes when the module has none: after the docstring, or below leading comments. */
  private readonly headEnd: number;
  /** The module starts with a function or class (two blank lines go between imports and it). */
  private readonly definitionFirst: boolean;

  constructor(
    root: Node,
    private readonly source: string,
    private readonly settings: IsortSettings,
    private readonly newline: string,
  ) {
    let leading = true;
    let headEnd = -1;
    for (const [index, node] of named(root).entries()) {
      const statement = this.read(node);
      if (statement) {
        this.statements.push(statement);
        if (leading) this.block.push(statement);
      } else if (index === 0 && node.type === 'expression_statement' && node.firstNamedChild?.type === 'string') {
        headEnd = node.endIndex;
      } else {
        leading = false;
      }
    }
    this.headEnd = headEnd;
    this.definitionFirst = /^(?:function|class|decorated)_definition$/.test(named(root)[0]?.type ?? '');
  }

  private read(node: Node): Statement | null {
    if (node.type === 'future_import_statement') {
      return { node, from: true, module: '__future__', names: this.names(node, null), section: FUTURE };
    }
    if (node.type === 'import_statement') {
      const first = named(node)[0];
      const module = first?.type === 'aliased_import' ? (first.childForFieldName('name')?.text ?? '') : (first?.text ?? '');
      return { node, from: false, module, names: this.names(node, null), section: this.section(module) };
    }
    if (node.type === 'import_from_statement') {
      const moduleNode = node.childForFieldName('module_name');
      const module = moduleNode?.text ?? '';
      return { node, from: true, module, names: this.names(node, moduleNode), section: this.section(module) };
    }
    return null;
  }

  private names(node: Node, moduleNode: Node | null): ImportName[] {
    return named(node)
      .filter((child) => child.id !== moduleNode?.id && (child.type === 'dotted_name' || child.type === 'aliased_import'))
      .map((child) =>
        child.type === 'aliased_import'
          ? { name: child.childForFieldName('name')?.text ?? '', alias: child.childForFieldName('alias')?.text ?? null }
          : { name: child.text, alias: null },
      );
  }

  private section(module: string): Section {
    if (module.startsWith('.')) return LOCAL;
    const top = module.split('.')[0];
    if (top === '__future__') return FUTURE;
    if (STDLIB_MODULES.has(top) || this.settings.extraStandardLibrary.has(top)) return STDLIB;
    if (this.settings.knownFirstParty.has(top)) return FIRST_PARTY;
    return THIRD_PARTY;
  }

  /** The name `import module` is reachable by here (its alias), or null when the module is not imported whole. */
  moduleName(module: string): string | null {
    for (const statement of this.statements) {
      if (statement.from) continue;
      const found = statement.names.find((item) => item.name === module);
      if (found) return found.alias ?? module;
    }
    return null;
  }

  /** The local name of `from module import name`, or null. */
  importedName(module: string, name: string): string | null {
    for (const statement of this.statements) {
      if (!statement.from || statement.module !== module) continue;
      const found = statement.names.find((item) => item.name === name);
      if (found) return found.alias ?? name;
    }
    return null;
  }

  /** Whether the module imports this top-level package at all (`import anyio`, `from anyio import ...`). */
  uses(packageName: string): boolean {
    return this.statements.some((statement) => statement.module === packageName || statement.module.startsWith(`${packageName}.`));
  }

  /** The name to reach a module by, adding `import module` where isort puts it when the module is not imported. */
  requireModule(module: string): string {
    const existing = this.moduleName(module) ?? this.added.find((item) => !item.from && item.module === module)?.module;
    if (existing) return existing;
    this.added.push({ module, from: false, names: [], section: this.section(module) });
    return module;
  }

  /**
   * The name to use `module.name` by: an existing import of it, else the name merged into the module's
   * `from module import ...` (single line, or parenthesized one name per line), else a new `from` import.
   * Null when the existing `from` import is laid out in a way that cannot be merged into safely.
   */
  requireName(module: string, name: string): string | null {
    const existing = this.importedName(module, name);
    if (existing) return existing;
    const statement = this.block.find((item) => item.from && item.module === module && item.names.every((entry) => entry.name !== '*'));
    if (statement) {
      if (/#/.test(statement.node.text) || /\\\s*\n/.test(statement.node.text)) return null;
      const names = this.merged.get(statement) ?? [];
      if (!names.includes(name)) names.push(name);
      this.merged.set(statement, names);
      return name;
    }
    const added = this.added.find((item) => item.from && item.module === module);
    if (!added) this.added.push({ module, from: true, names: [name], section: this.section(module) });
    else if (!added.names.includes(name)) added.names.push(name);
    return name;
  }

  /** The edits for every import required so far (new lines that go to the same place make one edit, in sorted order). */
  edits(): Edit[] {
    const edits: Edit[] = [];
    for (const [statement, extra] of this.merged) edits.push(this.mergeEdit(statement, extra));
    const groups = new Map<string, { place: Place; lines: string[] }>();
    for (const item of [...this.added].sort((a, b) => a.section - b.section || this.compareLines(a, b))) {
      const place = this.place(item);
      const key = `${place.offset}:${place.layout}`;
      const group = groups.get(key) ?? { place, lines: [] };
      const names = [...item.names].sort((a, b) => compare(memberKey(a, this.settings), memberKey(b, this.settings)));
      group.lines.push(item.from ? `from ${item.module} import ${names.join(', ')}` : `import ${item.module}`);
      groups.set(key, group);
    }
    for (const { place, lines } of groups.values()) {
      const block = lines.join(this.newline);
      const nl = this.newline;
      const text = { before: `${block}${nl}`, after: `${nl}${block}`, 'new-after': `${nl}${nl}${block}`, 'new-before': `${block}${nl}${nl}`, head: `${block}${nl}${nl}${this.definitionFirst ? nl : ''}` }[place.layout];
      edits.push({ start: place.offset, end: place.offset, text });
    }
    return edits;
  }

  private compareLines(a: { module: string; from: boolean }, b: { module: string; from: boolean }): number {
    if (!this.settings.forceSortWithinSections && a.from !== b.from) return a.from ? 1 : -1;
    return compare(moduleKey(a.module, this.settings), moduleKey(b.module, this.settings)) || Number(a.from) - Number(b.from);
  }

  private mergeEdit(statement: Statement, extra: readonly string[]): Edit {
    const entries = [...statement.names.map((item) => (item.alias ? `${item.name} as ${item.alias}` : item.name)), ...extra];
    entries.sort((a, b) => compare(memberKey(a.split(' ')[0], this.settings), memberKey(b.split(' ')[0], this.settings)));
    const head = `from ${statement.module} import `;
    const oneLine = `${head}${entries.join(', ')}`;
    const magicComma = /,\s*\)\s*$/.test(statement.node.text);
    const column = statement.node.startPosition.column;
    const text =
      !magicComma && column + oneLine.length <= this.settings.lineLength
        ? oneLine
        : `${head}(${this.newline}${entries.map((entry) => `    ${entry},${this.newline}`).join('')})`;
    return { start: statement.node.startIndex, end: statement.node.endIndex, text };
  }

  /** Where a new import line goes: in its section at its sorted place, or as a new section in the section order, or first in the module. */
  private place(item: { module: string; from: boolean; section: Section }): Place {
    const peers = this.block.filter((statement) => statement.section === item.section);
    if (peers.length > 0) {
      const next = peers.find((statement) => this.compareLines(item, statement) < 0);
      return next ? { offset: this.lineStartAbove(next), layout: 'before' } : { offset: this.lineEnd(peers[peers.length - 1].node.endIndex), layout: 'after' };
    }
    const earlier = this.block.filter((statement) => statement.section < item.section).at(-1);
    if (earlier) return { offset: this.lineEnd(earlier.node.endIndex), layout: 'new-after' };
    const later = this.block.find((statement) => statement.section > item.section);
    if (later) return { offset: this.lineStartAbove(later), layout: 'new-before' };
    if (this.headEnd >= 0) return { offset: this.lineEnd(this.headEnd), layout: 'new-after' };
    // Below a leading comment block (a shebang, an encoding line, a licence header), then a blank line.
    return { offset: /^(?:#[^\n]*\n)*/.exec(this.source)![0].length, layout: 'head' };
  }

  private lineEnd(offset: number): number {
    let end = this.source.indexOf('\n', offset);
    if (end === -1) end = this.source.length;
    else if (this.source[end - 1] === '\r') end--;
    return end;
  }

  /** The start of a statement's line, above the comment lines attached to it. */
  private lineStartAbove(statement: Statement): number {
    let start = this.source.lastIndexOf('\n', statement.node.startIndex - 1) + 1;
    while (start > 0) {
      const previous = this.source.lastIndexOf('\n', start - 2) + 1;
      if (!/^[ \t]*#/.test(this.source.slice(previous, start))) break;
      start = previous;
    }
    return start;
  }
}

interface Place {
  offset: number;
  layout: 'before' | 'after' | 'new-after' | 'new-before' | 'head';
}
