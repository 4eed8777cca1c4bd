import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { walk, type Node } from '../rules/analysis/ast.js';
import { HAND_OFF_METHOD, HELPER_BASE_NAMES, declaresHelper, helperText, type HelperKind } from './helpers.js';
import { detectLayout, indentAt, lines, type Edit, type Layout } from './layout.js';
import { enclosingFunction, isStatementListItem, type LoopPlan, type ReaderPlan } from './plan.js';
import type { DataHandlerPlan } from './plan-data-handler.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

export { DEFAULT_DRAIN_TIMEOUT_MS } from '../rules/contract/drain-options.js';

function range(node: Node): [number, number] {
  return node.range;
}

/** Collects the edits of every plan of a file, the helper names they share, and the helpers to append. */
export class EditBuilder {
  private readonly changes: Edit[] = [];
  private readonly layout: Layout;
  private readonly helperNames = new Map<HelperKind, string>();
  private readonly namesByFunction = new Map<Node | null, Set<string>>();

  constructor(
    private readonly text: string,
    private readonly sourceCode: SourceCode,
    typescript: boolean,
    private readonly budget: number,
  ) {
    const usesSemicolons = /;[ \t]*(\r?\n|$)/.test(text) || !/\S/.test(text);
    this.layout = detectLayout(text, typescript, usesSemicolons);
  }

  /** `await reader.cancel();` -> `void drainReader(reader, 1000);` (or awaited where the reader is read again). */
  reader(plan: ReaderPlan): void {
    const { layout, text } = this;
    const s = layout.semi;
    const [start, end] = range(plan.statement);
    const call = `${plan.detached ? 'void' : 'await'} ${this.helper('reader')}(${plan.reader}, ${this.budget})`;
    const drain = plan.optional ? `if (${plan.reader}) ${call}${s}` : `${call}${s}`;
    // `if (a) if (b) x; else y` would change meaning: a guarded drain in a brace-less position gets braces.
    if (plan.optional && !isStatementListItem(plan.statement)) this.braced(plan.statement, [drain]);
    else this.changes.push({ start, end, text: drain });
    if (plan.finallyOf) {
      // Only the success path drains: a failure closes at once, as before, and is rethrown.
      const block = plan.finallyOf.block as Node;
      const tryIndent = indentAt(text, range(plan.finallyOf)[0]);
      const errorName = this.freshLocal(plan.finallyOf, 'error');
      const at = range(block)[1];
      const catchText = lines(layout, tryIndent, [
        ` catch (${errorName}) {`,
        `${layout.unit}${plan.closeText}`,
        `${layout.unit}throw ${errorName}${s}`,
        '}',
      ]);
      this.changes.push({ start: at, end: at, text: catchText });
    }
  }

  /** `res.destroy();` in a 'data' handler -> `drainNodeStream(res, 1000);` (the statements after it stay as they were). */
  dataHandler(plan: DataHandlerPlan): void {
    const [start, end] = range(plan.statement);
    this.changes.push({ start, end, text: `${this.helper('nodeStream')}(${plan.stream}, ${this.budget})${this.layout.semi ? ';' : ''}` });
  }

  /** `for await (const x of source)` -> `const events = drainable(source, …); for await (const x of events)`, and `events.drainInBackground()` where the completion branch leaves or closes. */
  loop(plan: LoopPlan): void {
    const { layout, text } = this;
    const s = layout.semi;
    const loop = plan.loop;
    const holder = loop.parent?.type === AST_NODE_TYPES.LabeledStatement ? (loop.parent as Node) : (loop as Node);
    const holderStart = range(holder)[0];
    const indent = indentAt(text, holderStart);
    const name = this.freshLocal(loop, 'events');
    const helper = this.helper('loop');
    const stop = plan.stop === null ? '' : 'controller' in plan.stop ? `, ${plan.stop.controller}` : `, () => ${plan.stop.close}`;
    let source = this.sourceCode.getText(loop.right);
    let declarations = '';
    let bodyReader = '';
    if (plan.tap) {
      // The parser reads a stand-in; the helper keeps the reader of the real body for the drain.
      const tapped = this.freshLocal(loop, 'tapped');
      const [tapStart, tapEnd] = range(plan.tap);
      const rightStart = range(loop.right)[0];
      source = `${source.slice(0, tapStart - rightStart)}${tapped}.standIn${source.slice(tapEnd - rightStart)}`;
      declarations = `const ${tapped} = ${this.helper('tap')}(${this.sourceCode.getText(plan.tap)})${s}${layout.eol}${indent}`;
      bodyReader = `${plan.stop === null ? ', undefined' : ''}, ${tapped}.reader`;
    }
    const declaration = `const ${name} = ${helper}(${source}, ${this.budget}${stop}${bodyReader})${s}`;
    this.changes.push({ start: holderStart, end: holderStart, text: `${declarations}${declaration}${layout.eol}${indent}` });
    const [rightStart, rightEnd] = range(loop.right);
    this.changes.push({ start: rightStart, end: rightEnd, text: name });

    const handOff = `${name}.${HAND_OFF_METHOD}()${s}`;
    const replacedCloses = new Set(plan.changes.filter((change) => change.kind === 'close').map((change) => change.statement));
    for (const change of plan.changes) {
      const [start, end] = range(change.statement);
      if (change.kind === 'close') {
        this.changes.push({ start, end, text: handOff });
        continue;
      }
      // A jump right after a replaced close already follows the hand-off.
      if (replacedCloses.has(previousStatement(change.statement) as Node)) continue;
      const at = indentAt(text, start);
      if (isStatementListItem(change.statement)) {
        this.changes.push({ start, end: start, text: `${handOff}${layout.eol}${at}` });
      } else {
        this.braced(change.statement, [handOff, this.sourceCode.getText(change.statement)]);
      }
    }
  }

  /** Replaces a statement in a brace-less position (`if (x) stmt;`) by a block of `statements`; a following `else` goes on the closing brace's line. */
  private braced(statement: Node, statements: string[]): void {
    const { layout, text } = this;
    const [start, end] = range(statement);
    const block = lines(layout, indentAt(text, start), ['{', ...statements.map((line) => `${layout.unit}${line}`), '}']);
    const parent = statement.parent;
    const elseAfter = parent?.type === AST_NODE_TYPES.IfStatement && parent.consequent === statement && parent.alternate ? /^\s*(?=else\b)/.exec(text.slice(end)) : null;
    if (elseAfter) this.changes.push({ start, end: end + elseAfter[0].length, text: `${block} ` });
    else this.changes.push({ start, end, text: block });
  }

  /** Every edit so far, and the helpers they use appended after the file's last line (a helper the file declares is reused). */
  edits(): Edit[] {
    if (this.changes.length === 0) return [];
    const appended = [...this.helperNames]
      .filter(([kind, name]) => !declaresHelper(this.text, name, kind))
      .map(([kind, name]) => helperText(kind, name, this.layout));
    if (appended.length === 0) return [...this.changes];
    const eol = this.layout.eol;
    const trailing = /[\r\n]*$/.exec(this.text)![0];
    const at = this.text.length - trailing.length;
    return [...this.changes, { start: at, end: this.text.length, text: `${eol}${eol}${appended.join(`${eol}${eol}`)}${eol}` }];
  }

  /** One helper per kind for the whole file: an existing drainguard helper of that name is reused, else a name free in the file. */
  private helper(kind: HelperKind): string {
    let name = this.helperNames.get(kind);
    if (name) return name;
    const base = HELPER_BASE_NAMES[kind];
    name = base;
    for (let suffix = 2; !declaresHelper(this.text, name, kind) && new RegExp(`\\b${name}\\b`).test(this.text); suffix++) name = `${base}${suffix}`;
    this.helperNames.set(kind, name);
    return name;
  }

  /** Names a new local of `fn` could clash with: identifiers it uses (not property names) and variables in scope there. */
  private namesUsedIn(fn: Node | null): Set<string> {
    const names = new Set<string>();
    const root = fn ?? this.sourceCode.ast;
    walk(root, this.sourceCode.visitorKeys, (node) => {
      if (node.type !== AST_NODE_TYPES.Identifier) return;
      const parent = node.parent;
      if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return;
      if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed && !parent.shorthand) return;
      names.add(node.name);
    });
    for (let scope: { variables: Array<{ name: string }>; upper: unknown } | null = this.sourceCode.getScope(root); scope; scope = scope.upper as typeof scope) {
      for (const variable of scope.variables) names.add(variable.name);
    }
    return names;
  }

  /** A name not used in the function that holds `node` (nor by another rewrite there): names are chosen per function, not numbered across the file. */
  private freshLocal(node: Node, base: string): string {
    const fn = enclosingFunction(node);
    let taken = this.namesByFunction.get(fn);
    if (!taken) this.namesByFunction.set(fn, (taken = this.namesUsedIn(fn)));
    const moduleNames = [...this.helperNames.values()];
    for (let suffix = 1; ; suffix++) {
      const name = suffix === 1 ? base : `${base}${suffix}`;
      if (taken.has(name) || moduleNames.includes(name)) continue;
      taken.add(name);
      return name;
    }
  }
}

function previousStatement(statement: Node): Node | null {
  const parent = statement.parent;
  const list = parent?.type === AST_NODE_TYPES.BlockStatement || parent?.type === AST_NODE_TYPES.Program || parent?.type === AST_NODE_TYPES.StaticBlock ? parent.body : parent?.type === AST_NODE_TYPES.SwitchCase ? parent.consequent : null;
  if (!list) return null;
  const index = (list as Node[]).indexOf(statement);
  return index > 0 ? list[index - 1] : null;
}

