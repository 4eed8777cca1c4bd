import type { CloseSite } from '../../rules/python/cfg.js';
import { analyzePython, type PythonReport } from '../../rules/python/analyze.js';
import { isAsync, named } from '../../rules/python/build.js';
import { firstSyntaxError, parsePython, type Node, type Tree } from '../../rules/python/parser.js';
import { drainBounds } from '../../rules/contract/drain-options.js';
import { type RewriteOptions, type RewriteResult, type SiteResult } from '../rewrite.js';
import { socketDrain, trioDrain } from './drain-text.js';

interface Edit {
  start: number;
  end: number;
  text: string;
}

const DISABLE_NEXT_LINE = /^\s*#\s*drainguard-disable-next-line\b/;
const DISABLE_LINE = /#\s*drainguard-disable-line\b/;
/** HTTP clients whose responses have no httpx network stream to shut down. */
const OTHER_CLIENTS = ['aiohttp', 'requests', 'urllib3'];
const SIMPLE_REFERENCE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Module-level imports: which top-level modules are imported, and where a new import line goes. */
function moduleImports(root: Node): { modules: Set<string>; plain: Set<string>; insertAt: number } {
  const modules = new Set<string>();
  const plain = new Set<string>();
  let insertAt = 0;
  let seenCode = false;
  for (const [index, statement] of named(root).entries()) {
    if (statement.type === 'import_statement' || statement.type === 'import_from_statement' || statement.type === 'future_import_statement') {
      for (const name of statement.namedChildren) {
        if (!name) continue;
        if (statement.type === 'import_statement' && name.type === 'dotted_name') {
          modules.add(name.text.split('.')[0]);
          if (!name.text.includes('.')) plain.add(name.text);
        } else if (statement.type === 'import_statement' && name.type === 'aliased_import') {
          modules.add(name.childForFieldName('name')?.text.split('.')[0] ?? '');
        }
      }
      const from = statement.childForFieldName('module_name');
      if (from) modules.add(from.text.split('.')[0]);
      if (!seenCode) insertAt = statement.endIndex;
    } else if (index === 0 && statement.type === 'expression_statement' && statement.firstNamedChild?.type === 'string') {
      if (!seenCode) insertAt = statement.endIndex;
    } else {
      seenCode = true;
    }
  }
  return { modules, plain, insertAt };
}

function identifiers(root: Node): Set<string> {
  const names = new Set<string>();
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.nodeType === 'identifier') names.add(cursor.nodeText);
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return names;
      }
    }
  } finally {
    cursor.delete();
  }
}

function freshName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

function lineStart(text: string, offset: number): number {
  return Math.max(text.lastIndexOf('\n', offset - 1) + 1, 0);
}

/** The innermost `for` loop whose body holds the site (in the same function). */
function readLoop(site: Node): Node | null {
  for (let node = site.parent; node; node = node.parent) {
    if (node.type === 'function_definition' || node.type === 'lambda' || node.type === 'class_definition') return null;
    if (node.type === 'for_statement') return node;
  }
  return null;
}

/** One level of indentation: what the statement's line adds to the line of the compound statement around it. */
function indentStep(text: string, statement: Node, indent: string): string {
  const owner = statement.parent?.type === 'block' ? statement.parent.parent : null;
  if (owner) {
    const outer = text.slice(lineStart(text, owner.startIndex), owner.startIndex);
    if (/^[ \t]*$/.test(outer) && indent.startsWith(outer) && indent.length > outer.length) return indent.slice(outer.length);
  }
  return indent.startsWith('\t') ? '\t' : '    ';
}

/** trio code bounds the drain with trio's cancel scope; other code (asyncio, anyio, sync) by shutting the socket down. */
function usesTrio(modules: Set<string>): boolean {
  return modules.has('trio') && !modules.has('anyio') && !modules.has('asyncio');
}

function suppressed(lines: readonly string[], report: PythonReport): boolean {
  return DISABLE_NEXT_LINE.test(lines[report.line - 2] ?? '') || DISABLE_LINE.test(lines[report.line - 1] ?? '');
}

interface Planned {
  result: SiteResult;
  edits: Edit[];
  imports: string[];
}

/** Rewrites every site drainguard reports in a Python file into a bounded drain before the original close. */
export async function rewritePython(source: string, options: RewriteOptions = {}): Promise<RewriteResult> {
  const budget = drainBounds(options).drainTimeoutMs;
  const tree = await parsePython(source);
  try {
    const error = firstSyntaxError(tree.rootNode);
    if (error) return { output: null, sites: [], parseError: `invalid syntax at line ${error.startPosition.row + 1}` };
    const lines = source.split(/\r\n|\r|\n/);
    const reports = analyzePython(tree, source).filter((report) => !suppressed(lines, report));
    if (reports.length === 0) return { output: null, sites: [] };
    const context = {
      source,
      newline: source.includes('\r\n') ? '\r\n' : '\n',
      imports: moduleImports(tree.rootNode),
      taken: identifiers(tree.rootNode),
      budget,
      boundLoops: new Map<number, string>(),
    };
    const planned = reports.map((report) => planSite(report, context));
    const edits = planned.flatMap((plan) => plan.edits);
    if (edits.length === 0) return { output: null, sites: planned.map((plan) => plan.result) };
    const needed = [...new Set(planned.flatMap((plan) => plan.imports))].filter((name) => !context.imports.plain.has(name)).sort();
    if (needed.length > 0) edits.push(importEdit(source, context.imports.insertAt, needed, context.newline));
    const output = applyEdits(source, edits);
    const check = await verify(output, planned.filter((plan) => plan.result.status === 'manual').length);
    if (check) {
      return { output: null, sites: planned.map(({ result }) => (result.status === 'fixed' ? { line: result.line, column: result.column, status: 'manual', reason: check } : result)) };
    }
    return { output, sites: planned.map((plan) => plan.result) };
  } finally {
    tree.delete();
  }
}

/** New imports go on their own lines after the last leading import (after a comment that ends its line, too). */
function importEdit(source: string, insertAt: number, names: readonly string[], newline: string): Edit {
  const text = names.map((name) => `import ${name}`).join(newline);
  if (insertAt === 0) {
    // Below a leading comment block (a shebang, an encoding declaration, a licence header), then a blank line.
    const header = /^(?:#[^\n]*\n)*/.exec(source)![0].length;
    return { start: header, end: header, text: `${text}${newline}${newline}` };
  }
  let lineEnd = source.indexOf('\n', insertAt);
  if (lineEnd === -1) lineEnd = source.length;
  else if (source[lineEnd - 1] === '\r') lineEnd--;
  return { start: lineEnd, end: lineEnd, text: `${newline}${text}` };
}

function applyEdits(source: string, edits: readonly Edit[]): string {
  let output = source;
  for (const edit of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) output = output.slice(0, edit.start) + edit.text + output.slice(edit.end);
  return output;
}

/** A rewrite is kept only if it parses and leaves nothing to report. */
async function verify(output: string, manualSites: number): Promise<string | null> {
  let tree: Tree | undefined;
  try {
    tree = await parsePython(output);
    if (firstSyntaxError(tree.rootNode)) return 'the rewrite would not parse: fix this site by hand';
    const lines = output.split(/\r\n|\r|\n/);
    const left = analyzePython(tree, output).filter((report) => !suppressed(lines, report));
    if (left.length > manualSites) return 'the rewrite would still close early: fix this site by hand';
    return null;
  } finally {
    tree?.delete();
  }
}

function planSite(
  report: PythonReport,
  context: {
    source: string;
    newline: string;
    imports: { modules: Set<string> };
    taken: Set<string>;
    budget: number;
    boundLoops: Map<number, string>;
  },
): Planned {
  const { site } = report;
  const at = { line: report.line, column: report.column };
  const manual = (reason: string): Planned => ({ result: { ...at, status: 'manual', reason }, edits: [], imports: [] });
  const loop = readLoop(site.node);
  if (!loop) return manual('no loop reads the stream where it is closed: drain it to EOF by hand');
  const statement = site.statement;
  const start = lineStart(context.source, statement.startIndex);
  const indent = context.source.slice(start, statement.startIndex);
  if (!/^[ \t]*$/.test(indent)) return manual('the close shares its line with other code: put it on a line of its own first');
  const iterable = loop.childForFieldName('right');
  if (!iterable) return manual('the loop has no iterable');

  const edits: Edit[] = [];
  let iterator: string;
  const bound = iterable.type === 'parenthesized_expression' ? named(iterable)[0] : null;
  if (iterable.type === 'identifier' || (iterable.type === 'attribute' && SIMPLE_REFERENCE.test(iterable.text))) {
    iterator = iterable.text;
  } else if (bound?.type === 'named_expression' && bound.childForFieldName('name')) {
    iterator = bound.childForFieldName('name')!.text;
  } else if (context.boundLoops.has(loop.id)) {
    iterator = context.boundLoops.get(loop.id)!;
  } else {
    // Hold the loop's iterator so the drain can read on from where the loop stopped.
    const variable = loop.childForFieldName('left');
    const base = variable?.type === 'identifier' ? `${variable.text}_iterator` : 'stream_iterator';
    iterator = freshName(base, context.taken);
    context.boundLoops.set(loop.id, iterator);
    edits.push({ start: iterable.startIndex, end: iterable.endIndex, text: `(${iterator} := ${iterable.text})` });
  }

  const text = {
    indent,
    step: indentStep(context.source, statement, indent),
    newline: context.newline,
    iterator,
    discard: freshName('_unread', context.taken),
    budgetMs: context.budget,
  };
  let drain: string;
  const imports: string[] = [];
  if (isAsync(loop) && usesTrio(context.imports.modules)) {
    drain = trioDrain(text);
    if (context.budget > 0) imports.push('trio');
  } else {
    const other = OTHER_CLIENTS.find((name) => context.imports.modules.has(name));
    if (other && !context.imports.modules.has('httpx')) {
      return manual(`the bounded drain is written for httpx responses (it shuts their socket down when the budget is spent); drain this ${other} response to EOF by hand`);
    }
    const response = responseOf(site);
    if (!response) return manual('the drain is bounded by shutting down the socket of the response, and no response is in reach here');
    drain = socketDrain(response, freshName('drain_timer', context.taken), freshName('drain_socket', context.taken), text, isAsync(loop));
    if (context.budget > 0) imports.push('socket', 'threading');
  }
  edits.push({ start, end: start, text: drain });
  const result: SiteResult = { ...at, status: 'fixed' };
  if (context.budget === 0) result.reason = 'drained without a budget (--drain-timeout-ms 0)';
  return { result, edits, imports };
}

/** The response a sync drain shuts the socket of: the stream the site closes, when it is a plain reference. */
function responseOf(site: CloseSite): string | null {
  return SIMPLE_REFERENCE.test(site.stream) ? site.stream : null;
}
