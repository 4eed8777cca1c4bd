import { callerWaitMs, drainBounds, type DrainOptions } from '../../rules/contract/drain-options.js';
import type { SharedRuleOptions } from '../../rules/contract/rule-options.js';
import { analyzePython, analyzePythonModule, type PythonReport } from '../../rules/python/analyze.js';
import type { ModuleFacts } from '../../rules/python/module.js';
import { pythonAnalysisOptions, type PythonAnalysisOptions } from '../../rules/python/options.js';
import { collectBindings, forEachCall, isAsync, named, statementOf } from '../../rules/python/tree.js';
import { firstSyntaxError, parsePython, type Node, type Tree } from '../../rules/python/parser.js';
import { StreamScope, lastName, unwrap } from '../../rules/python/streams.js';
import { isSuppressed } from '../../rules/contract/suppression.js';
import { pythonSyntaxError } from '../../rules/python/syntax-error.js';
import { isResponseName } from '../../rules/contract/vocabulary.js';
import type { SiteResult } from '../../rules/contract/fix-report.js';
import type { FileRewrite } from '../../rules/contract/fix-report.js';
import { DOCSTRING_START, EARLIER_HELPER, helperText, seconds } from './helper-text.js';
import { generatedNote } from '../generated.js';
import { applyEdits, type Edit } from '../../rules/contract/apply-edits.js';
import { ModuleImports } from './imports.js';
import { UNKNOWN_PROJECT, pythonProject, versionAtLeast, type PythonProject } from './project.js';

export interface PythonRewriteOptions extends DrainOptions {
  /** `terminalPatterns` / `closeMethods`, as `lint` takes them. */
  ruleOptions?: SharedRuleOptions;
  /** The file's path: the declarations of its project (pyproject.toml, …) choose the bound and the import order. */
  filePath?: string;
  /** The project itself, instead of reading it from `filePath`. */
  project?: PythonProject;
}

/** HTTP clients whose responses have no httpx network stream (and no `num_bytes_downloaded`). */
const OTHER_CLIENTS = ['aiohttp', 'requests', 'urllib3'];
const SIMPLE_REFERENCE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/** Calls that return the iterator they iterate (a second `for` over it goes on where the first stopped). */
const ITERATOR_METHOD = /^(a?iter_\w+|iter_content|__a?iter__|a?iter)$/;
/** Calls whose result carries the response as `.response` (httpx-sse, httpx2). */
const SSE_SOURCES = new Set(['aconnect_sse', 'connect_sse', 'sse', 'EventSource']);
const ITERATOR_ANNOTATION = /\b(?:Async)?(?:Iterator|Generator)\b/;
const SYNC_HELPER = '_drain_response';
const ASYNC_HELPER = '_adrain_response';
export const UNBOUNDED_PYTHON_REASON = 'unbounded: --drain-timeout-ms 0 drains without a time budget, so a server that keeps the body open keeps the call waiting';
export const EARLIER_HELPER_REASON =
  "bounded by time only: the module's drain helper is an earlier drainguard's, which counts the parsed events it reads, not the body's bytes, and whose caller waits up to its whole budget; delete it, undo its calls and run drainguard fix again";
/** Where a loop hands each message on to another task or thread: a memory stream, a queue, a channel. */
const HAND_ON_NAME = /(?:^|_)(?:writer|send_stream|sender|queue|channel)$/i;
const HAND_ON_METHODS = new Set(['send', 'send_nowait', 'put', 'put_nowait']);

interface Context {
  source: string;
  root: Node;
  newline: string;
  indentUnit: string;
  project: PythonProject;
  imports: ModuleImports;
  /** Per loop (node id): the name its iterator is bound to, once bound for one of its sites. */
  boundLoops: Map<number, string>;
  /** Per function (node id, or the module): the names taken there. */
  taken: Map<number, Set<string>>;
  /** Generator functions of the module, and whether each reads a response (see generatorFunctions). */
  generators: Map<string, boolean>;
  /** A drain the caller waits for, and one that runs after the messages were handed on: their budgets in ms (0 = none). */
  waitMs: number;
  timeoutMs: number;
  /** The helper each flavour's sites call (keyed by `async`). */
  helpers: Map<boolean, HelperState>;
  /** What the module's functions and classes say about each other (its own stream sources, …). */
  module: ModuleFacts;
  /** Per caller's call (node id): the drain already planned after it, for the other sites of the same function. */
  callerDrains: Set<number>;
}

/**
 * The helper a module's sites of one flavour call: a new one (written with the caller's wait as its default budget),
 * one of this version an earlier run wrote (reused, with the default budget it was written with, or none), one of an
 * earlier drainguard version (reused as it is, reported as bounded by time only), or someone else's function.
 */
interface HelperState {
  kind: 'new' | 'ours' | 'earlier' | 'other';
  /** The helper's default budget in ms, or null where it takes none (no time bound). */
  defaultMs: number | null;
}

interface Planned {
  result: SiteResult;
  edits: Edit[];
  /** The helper flavour the site calls, and the top-level statement it sits in (the helper goes before it). */
  helper?: { async: boolean; topLevel: Node };
}

/** Rewrites every site drainguard reports in a Python file into a call of a bounded drain before the original close. */
export async function rewritePython(source: string, options: PythonRewriteOptions = {}): Promise<FileRewrite> {
  const bounds = drainBounds(options);
  const analysis = pythonAnalysisOptions(options.ruleOptions);
  const tree = await parsePython(source);
  try {
    const error = pythonSyntaxError(tree, source);
    if (error) return { output: null, sites: [], parseError: `${error.line}:${error.column} Parsing error: ${error.message}` };
    const lines = source.split(/\r\n|\r|\n/);
    const analyzed = analyzePythonModule(tree, source, analysis);
    const reports = analyzed.reports.filter((report) => !isSuppressed(lines, report.line));
    if (reports.length === 0) return { output: null, sites: [] };
    const project = options.project ?? (options.filePath ? pythonProject(options.filePath) : UNKNOWN_PROJECT);
    const newline = source.includes('\r\n') ? '\r\n' : '\n';
    const context: Context = {
      source,
      root: tree.rootNode,
      newline,
      indentUnit: indentUnit(tree.rootNode, source),
      project,
      imports: new ModuleImports(tree.rootNode, source, project.isort, newline),
      boundLoops: new Map(),
      taken: new Map(),
      generators: generatorFunctions(tree.rootNode),
      waitMs: callerWaitMs(bounds),
      timeoutMs: bounds.drainTimeoutMs,
      helpers: new Map([false, true].map((async) => [async, helperState(tree.rootNode, async ? ASYNC_HELPER : SYNC_HELPER, callerWaitMs(bounds))])),
      module: analyzed.module,
      callerDrains: new Set(),
    };
    const planned = reports.map((report) => planSite(report, context));
    // The helpers first: a site whose helper cannot be written turns manual and drops its edits.
    const helpers = helperEdits(planned, context, bounds);
    const siteEdits = planned.flatMap((plan) => plan.edits);
    if (siteEdits.length === 0) return { output: null, sites: planned.map((plan) => plan.result) };
    // Edits at one offset apply in list order: imports, then helpers, then a site's own lines.
    const edits = [...context.imports.edits(), ...helpers, ...siteEdits];
    const output = applyEdits(source, edits);
    const manual = planned.filter((plan) => plan.result.status === 'manual').length;
    const check = await verify(output, analysis, manual);
    if (check) {
      return { output: null, sites: planned.map(({ result }) => (result.status === 'fixed' ? { line: result.line, column: result.column, status: 'manual', reason: check } : result)) };
    }
    const note = generatedNote(source, options.filePath ?? null);
    if (note) {
      for (const { result } of planned) if (result.status === 'fixed') result.reason = result.reason ? `${result.reason}; ${note}` : note;
    }
    return { output, sites: planned.map((plan) => plan.result) };
  } finally {
    tree.delete();
  }
}

/** A rewrite is kept only if it parses and leaves nothing to report but the manual sites. */
async function verify(output: string, analysis: PythonAnalysisOptions, manualSites: number): Promise<string | null> {
  let tree: Tree | undefined;
  try {
    tree = await parsePython(output);
    if (firstSyntaxError(tree.rootNode)) return 'the rewrite would not parse: fix this site by hand';
    const lines = output.split(/\r\n|\r|\n/);
    const left = analyzePython(tree, output, analysis).filter((report) => !isSuppressed(lines, report.line));
    if (left.length > manualSites) return 'the rewrite would still close early: fix this site by hand';
    return null;
  } finally {
    tree?.delete();
  }
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Where a line inserted above a statement goes: above the comment lines directly attached to it. */
function insertionPoint(text: string, statement: Node): number {
  let start = lineStart(text, statement.startIndex);
  while (start > 0) {
    const previous = lineStart(text, start - 1);
    if (!/^[ \t]*#/.test(text.slice(previous, start))) break;
    start = previous;
  }
  return start;
}

/** The file's indentation unit: what the first indented block adds to its header's line. */
function indentUnit(root: Node, source: string): string {
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.type === 'block' && node.parent && node.startPosition.row > node.parent.startPosition.row) {
        const outer = source.slice(lineStart(source, node.parent.startIndex), node.parent.startIndex);
        const inner = source.slice(lineStart(source, node.startIndex), node.startIndex);
        if (/^[ \t]*$/.test(outer) && inner.startsWith(outer) && inner.length > outer.length) return inner.slice(outer.length);
      }
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return '    ';
    }
  } finally {
    cursor.delete();
  }
}

/** The quote most of the file's strings use. */
function quoteStyle(root: Node): '"' | "'" {
  let single = 0;
  let double = 0;
  const visit = (node: Node): void => {
    if (node.type === 'string_start') {
      if (node.text.endsWith("'")) single++;
      else if (node.text.endsWith('"')) double++;
      return;
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return single > double ? "'" : '"';
}

function enclosingFunction(node: Node): Node | null {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent.type === 'function_definition') return parent;
  return null;
}

function topLevelStatement(node: Node): Node {
  let current = node;
  while (current.parent && current.parent.type !== 'module') current = current.parent;
  return current;
}

/**
 * Functions of the module that are generators (a call of one returns an iterator), by name: whether
 * each reads a response stream in a `for` loop (`def _iter_events(self): for line in self.response.iter_lines(): yield ...`).
 */
function generatorFunctions(root: Node): Map<string, boolean> {
  const generators = new Map<string, boolean>();
  const hasYield = (node: Node): boolean => {
    if (node.type === 'yield') return true;
    return node.namedChildren.some((child) => child !== null && child.type !== 'function_definition' && child.type !== 'lambda' && child.type !== 'class_definition' && hasYield(child));
  };
  const visit = (node: Node): void => {
    if (node.type === 'function_definition') {
      const body = node.childForFieldName('body');
      const name = node.childForFieldName('name')?.text;
      if (name && body && hasYield(body)) {
        const scope = new StreamScope(collectBindings(body));
        const reads = forLoops(body).some((loop) => {
          const iterable = loop.childForFieldName('right');
          return iterable !== null && scope.isStream(iterable);
        });
        generators.set(name, (generators.get(name) ?? false) || reads);
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return generators;
}

function identifiersIn(node: Node): Set<string> {
  const names = new Set<string>();
  const visit = (current: Node): void => {
    if (current.type === 'identifier') names.add(current.text);
    for (const child of current.namedChildren) if (child) visit(child);
  };
  visit(node);
  return names;
}

/** A name not used in the function (or module) yet: `base`, `base_2`, … */
function freshName(base: string, scope: Node, context: Context): string {
  let taken = context.taken.get(scope.id);
  if (!taken) {
    taken = identifiersIn(scope);
    context.taken.set(scope.id, taken);
  }
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

/** The `for` statements of a function body, not those of functions nested in it. */
function forLoops(body: Node): Node[] {
  const loops: Node[] = [];
  const visit = (node: Node): void => {
    for (const child of named(node)) {
      if (child.type === 'function_definition' || child.type === 'class_definition' || child.type === 'lambda') continue;
      if (child.type === 'for_statement') loops.push(child);
      visit(child);
    }
  };
  visit(body);
  return loops;
}

/** Names whose values derive from `roots` in the function (`event_source = EventSource(response)`). */
function derivedNames(roots: readonly string[], bindings: readonly { target: Node; value: Node }[]): Set<string> {
  const names = new Set(roots);
  for (let changed = true, rounds = 0; changed && rounds < 4; rounds++) {
    changed = false;
    for (const { target, value } of bindings) {
      if (target.type !== 'identifier' || names.has(target.text)) continue;
      if ([...identifiersIn(value)].some((name) => names.has(name))) {
        names.add(target.text);
        changed = true;
      }
    }
  }
  return names;
}

/**
 * The loop that reads the response a site closes: the innermost one around the site, else the last one
 * before it. A loop reads it when its iterable derives from the response, or comes from a generator of
 * the module that reads a response (`iterator = self._iter_events()`).
 */
function readLoop(site: Node, body: Node, scope: StreamScope, names: Set<string>, readers: ReadonlySet<string>): Node | null {
  const reading = forLoops(body).filter((loop) => {
    const iterable = loop.childForFieldName('right');
    if (!iterable) return false;
    const value = unwrap(iterable);
    const called = value.type === 'call' ? lastName(value.childForFieldName('function')!) : '';
    if (readers.has(called) || (value.type === 'identifier' && readers.has(value.text))) return true;
    return scope.isStream(iterable) && [...identifiersIn(iterable)].some((name) => names.has(name));
  });
  const around = reading.filter((loop) => loop.startIndex <= site.startIndex && site.endIndex <= loop.endIndex);
  if (around.length > 0) return around[around.length - 1];
  return reading.filter((loop) => loop.endIndex <= site.startIndex).at(-1) ?? null;
}

/**
 * The httpx response a site's stream is, as an expression: the stream itself, or the `.response` of an SSE reader (a
 * module's own context manager that yields one built over the response, as `aconnect_sse` does, included).
 */
function responseOf(stream: string, bindings: readonly { target: Node; value: Node }[], module: ModuleFacts): string | null {
  if (!SIMPLE_REFERENCE.test(stream)) return null;
  if (isResponseName(stream.split('.').pop()!)) return stream;
  const values = bindings.filter(({ target }) => target.text === stream).map(({ value }) => unwrap(value));
  if (values.length === 0) return null;
  const callees = values.map((value) => (value.type === 'call' ? lastName(value.childForFieldName('function')!) : ''));
  if (callees.every((name) => SSE_SOURCES.has(name) || module.sourceYields(name) === 'reader')) return `${stream}.response`;
  if (callees.every((name) => name === 'stream' || name === 'send' || name === 'request' || module.sourceYields(name) === 'response')) return stream;
  return null;
}

/** Whether iterating `name` again goes on where the loop stopped (an iterator), as far as the function shows. */
function isIterator(name: string, fn: Node | null, bindings: readonly { target: Node; value: Node }[], generators: ReadonlyMap<string, boolean>): boolean {
  const values = bindings.filter(({ target }) => target.text === name).map(({ value }) => unwrap(value));
  if (values.length > 0) {
    return values.every((value) => {
      if (value.type !== 'call') return false;
      const callee = lastName(value.childForFieldName('function')!);
      return ITERATOR_METHOD.test(callee) || generators.has(callee);
    });
  }
  const param = named(fn?.childForFieldName('parameters') ?? null).find((node) => (node.type === 'typed_parameter' ? named(node)[0]?.text : node.childForFieldName('name')?.text) === name);
  const annotation = param?.childForFieldName('type')?.text ?? '';
  return ITERATOR_ANNOTATION.test(annotation);
}

function planSite(report: PythonReport, context: Context): Planned {
  const { site } = report;
  const at = { line: report.line, column: report.column };
  const manual = (reason: string): Planned => ({ result: { ...at, status: 'manual', reason }, edits: [] });
  const fn = enclosingFunction(site.node);
  const body = fn?.childForFieldName('body') ?? context.root;
  const statement = site.statement;
  const start = lineStart(context.source, statement.startIndex);
  const indent = context.source.slice(start, statement.startIndex);
  if (!/^[ \t]*$/.test(indent)) return manual('the close shares its line with other code: put it on a line of its own first');
  const other = OTHER_CLIENTS.find((name) => context.imports.uses(name));
  if (other && !context.imports.uses('httpx') && !context.imports.uses('httpx2')) {
    return manual(`the drain is written for httpx responses (it counts their bytes and bounds the read); drain this ${other} response to EOF by hand`);
  }
  if (site.method === 'producer') {
    return manual(`the response is opened and closed inside the generator the loop leaves (${(site.by ?? '').replace(/, which the loop leaves unfinished,$/, '')}), out of this function's reach: drain it there before its \`with\` exits, or read the generator to its end`);
  }
  const bindings = collectBindings(body);
  // A parameter given the response itself by the caller that closes it is that response.
  const response = site.caller?.argument.text === site.caller?.response && site.caller ? site.stream : responseOf(site.stream, bindings, context.module);
  if (!response && site.caller && site.method === 'outer') return planCallerDrain(report, context);
  if (!response && site.method === 'abandoned' && site.node.type !== 'raise_statement') {
    return manual(`the loop reads \`${site.stream}\`, which a caller outside this module passes in: the response is not in reach here; drain it where it is opened, after this function returns`);
  }
  if (!response) return manual(`\`${site.stream}\` is not an httpx response the drain can read and count: drain it to EOF by hand`);
  const roots = [site.stream.split('.')[0], response.split('.')[0]];
  const scope = new StreamScope(bindings, roots);
  // Names bound from a call of a generator that reads a response, and those generators' own names.
  const readers = new Set([...context.generators].filter(([, reads]) => reads).map(([name]) => name));
  for (const { target, value } of bindings) {
    const call = unwrap(value);
    if (target.type === 'identifier' && call.type === 'call' && readers.has(lastName(call.childForFieldName('function')!))) readers.add(target.text);
  }
  const loop = readLoop(site.node, body, scope, derivedNames(roots, bindings), readers);
  if (!loop) {
    // No `for` loop: an iterator over the body held in a name (`lines = response.aiter_lines()`, read with `__anext__()`).
    const held = heldIterator(site.node, bindings, roots);
    if (!held) return manual('no loop or iterator reads the response before this close: drain it to EOF by hand');
    const around = enclosingLoop(site.node, body);
    return siteCall(report, context, { statement, indent, response, iterator: held.name, async: held.async, handedOn: around && fn ? handedOn(fn, around) : null }, []);
  }
  const iterable = loop.childForFieldName('right')!;
  const asyncLoop = isAsync(loop);

  const edits: Edit[] = [];
  let iterator = context.boundLoops.get(loop.id);
  if (!iterator && iterable.type === 'identifier' && isIterator(iterable.text, fn, bindings, context.generators)) iterator = iterable.text;
  if (!iterator) {
    // Hold the loop's iterator in a name, so that the drain reads on from where the loop stopped.
    const variable = loop.childForFieldName('left');
    iterator = freshName(variable?.type === 'identifier' ? `${variable.text.replace(/^_+/, '')}_iterator` : 'stream_iterator', fn ?? context.root, context);
    const value = unwrap(iterable);
    const returnsIterator = value.type === 'call' && (ITERATOR_METHOD.test(lastName(value.childForFieldName('function')!)) || context.generators.has(lastName(value.childForFieldName('function')!)));
    let expression = iterable.text;
    if (!returnsIterator) {
      const wrapped = iterable.type === 'identifier' || iterable.type === 'attribute' || iterable.type === 'call' ? iterable.text : `(${iterable.text})`;
      expression = !asyncLoop ? `iter(${iterable.text})` : versionAtLeast(context.project.requiresPython, [3, 10]) ? `aiter(${iterable.text})` : `${wrapped}.__aiter__()`;
    }
    const loopIndent = context.source.slice(lineStart(context.source, loop.startIndex), loop.startIndex);
    if (!/^[ \t]*$/.test(loopIndent)) return manual('the loop shares its line with other code: put it on a line of its own first');
    const point = insertionPoint(context.source, loop);
    edits.push({ start: point, end: point, text: `${loopIndent}${iterator} = ${expression}${context.newline}` });
    edits.push({ start: iterable.startIndex, end: iterable.endIndex, text: iterator });
    context.boundLoops.set(loop.id, iterator);
  }
  return siteCall(report, context, { statement, indent, response, iterator, async: asyncLoop, handedOn: fn ? handedOn(fn, loop) : null }, edits);
}

/**
 * A function that reads an iterator its caller passed in (`yield from events(response.iter_lines())`) and leaves it at
 * the terminal event, the caller's `with` closing the response afterwards: the response is in the caller's reach only,
 * so the caller drains the same iterator right after the call, before its `with` exits or its close runs (the iterator
 * bound to a name first when it was passed as a call).
 */
function planCallerDrain(report: PythonReport, context: Context): Planned {
  const at = { line: report.line, column: report.column };
  const manual = (reason: string): Planned => ({ result: { ...at, status: 'manual', reason }, edits: [] });
  const caller = report.site.caller!;
  const statement = statementOf(caller.call);
  const by = report.site.by ?? 'the caller';
  if (statement.type === 'return_statement' || statement.type === 'raise_statement') {
    return manual(`${by} returns what the call gives, so nothing runs after it before the response is closed: drain \`${caller.response}\` there by hand`);
  }
  const start = lineStart(context.source, statement.startIndex);
  const indent = context.source.slice(start, statement.startIndex);
  if (!/^[ \t]*$/.test(indent)) return manual('the call shares its line with other code: put it on a line of its own first');
  const loop = enclosingLoop(report.site.node, enclosingFunction(report.site.node)?.childForFieldName('body') ?? context.root);
  const async = loop !== null && isAsync(loop);
  const result: Planned = { result: { ...at, status: 'fixed' }, edits: [], helper: { async, topLevel: topLevelStatement(statement) } };
  const helper = context.helpers.get(async)!;
  if (helper.kind === 'earlier') result.result.reason = EARLIER_HELPER_REASON;
  else if (helper.defaultMs === null) result.result.reason = UNBOUNDED_PYTHON_REASON;
  if (context.callerDrains.has(caller.call.id)) return result;
  context.callerDrains.add(caller.call.id);
  const callerFn = enclosingFunction(caller.call);
  let iterator = caller.argument.text;
  if (!SIMPLE_REFERENCE.test(iterator)) {
    const variable = /^a?iter_(\w+)$/.exec(lastName(unwrap(caller.argument).childForFieldName('function') ?? caller.argument))?.[1] ?? 'stream';
    iterator = freshName(variable, callerFn ?? context.root, context);
    const point = insertionPoint(context.source, statement);
    result.edits.push({ start: point, end: point, text: `${indent}${iterator} = ${caller.argument.text}${context.newline}` });
    result.edits.push({ start: caller.argument.startIndex, end: caller.argument.endIndex, text: iterator });
  }
  const budget = helper.defaultMs !== null && context.waitMs > 0 && context.waitMs !== helper.defaultMs ? `, budget=${seconds(context.waitMs)}` : '';
  const end = context.source.indexOf('\n', statement.endIndex);
  const point = end === -1 ? context.source.length : end + 1;
  const lead = end === -1 ? context.newline : '';
  result.edits.push({ start: point, end: point, text: `${lead}${indent}${async ? 'await ' : ''}${async ? ASYNC_HELPER : SYNC_HELPER}(${caller.response}, ${iterator}${budget})${context.newline}` });
  return result;
}

interface SiteCall {
  statement: Node;
  indent: string;
  response: string;
  iterator: string;
  async: boolean;
  /** Where the loop hands each message on before the drain (`ctx.read_stream_writer`), or null: the caller waits for the drain. */
  handedOn: string | null;
}

/**
 * The site's own edit: the call of the helper, on a line of its own before the statement that closes. A drain the
 * caller waits for gets the caller's wait (the helper's default budget); one that runs after the messages were
 * handed on gets the whole drain budget.
 */
function siteCall(report: PythonReport, context: Context, call: SiteCall, edits: Edit[]): Planned {
  const helper = context.helpers.get(call.async)!;
  const wanted = call.handedOn ? context.timeoutMs : context.waitMs;
  const budget = helper.defaultMs !== null && wanted > 0 && wanted !== helper.defaultMs ? `, budget=${seconds(wanted)}` : '';
  const text = `${call.async ? 'await ' : ''}${call.async ? ASYNC_HELPER : SYNC_HELPER}(${call.response}, ${call.iterator}${budget})`;
  const point = insertionPoint(context.source, call.statement);
  edits.push({ start: point, end: point, text: `${call.indent}${text}${context.newline}` });
  const result: SiteResult = { line: report.line, column: report.column, status: 'fixed' };
  if (helper.kind === 'earlier') result.reason = EARLIER_HELPER_REASON;
  else if (helper.defaultMs === null || wanted === 0) result.reason = UNBOUNDED_PYTHON_REASON;
  else if (call.handedOn) {
    result.reason = `drains after the loop handed its messages on to \`${call.handedOn}\`, so the caller does not wait for it: up to ${context.timeoutMs} ms (--drain-timeout-ms)`;
  }
  return { result, edits, helper: { async: call.async, topLevel: topLevelStatement(report.site.node) } };
}

/** The innermost loop around a node, within a function body. */
function enclosingLoop(node: Node, body: Node): Node | null {
  for (let parent = node.parent; parent && parent.id !== body.id; parent = parent.parent) {
    if (parent.type === 'for_statement' || parent.type === 'while_statement') return parent;
  }
  return null;
}

/**
 * Where a loop hands each message on to another task or thread before the site drains, so that the drain delays no
 * caller: a function that returns nothing and is no generator (its caller gets nothing from it but its end), whose loop
 * sends to a memory stream, a queue or a channel (`await writer.send(message)`, `queue.put_nowait(message)`), or gives
 * one to a call (MCP's `await self._handle_sse_event(sse, ctx.read_stream_writer, ...)`). The channel as written, or
 * null: then the caller waits for the drain.
 */
function handedOn(fn: Node, loop: Node): string | null {
  const body = fn.childForFieldName('body');
  if (!body || functionYieldsOrReturnsValue(body)) return null;
  const isChannel = (node: Node | null): node is Node => node !== null && (node.type === 'identifier' || node.type === 'attribute') && HAND_ON_NAME.test(lastName(node));
  let channel: string | null = null;
  forEachCall(loop.childForFieldName('body') ?? loop, (call) => {
    if (channel) return;
    const callee = call.childForFieldName('function');
    const receiver = callee?.type === 'attribute' ? callee.childForFieldName('object') : null;
    if (callee && HAND_ON_METHODS.has(lastName(callee)) && isChannel(receiver)) {
      channel = receiver.text;
      return;
    }
    for (const argument of named(call.childForFieldName('arguments'))) {
      const value = argument.type === 'keyword_argument' ? argument.childForFieldName('value') : argument;
      if (isChannel(value)) {
        channel = value.text;
        return;
      }
    }
  });
  return channel;
}

/** Whether a function body yields (a generator) or returns a value somewhere (not looking into nested functions). */
function functionYieldsOrReturnsValue(body: Node): boolean {
  const visit = (node: Node): boolean =>
    named(node).some((child) => {
      if (child.type === 'function_definition' || child.type === 'lambda' || child.type === 'class_definition') return false;
      if (child.type === 'yield' || (child.type === 'return_statement' && named(child).length > 0)) return true;
      return visit(child);
    });
  return visit(body);
}

/** A name bound, before the site, to an iterator over the response (`lines = response.aiter_lines()`), and whether it is async. */
function heldIterator(site: Node, bindings: readonly { target: Node; value: Node }[], roots: readonly string[]): { name: string; async: boolean } | null {
  for (const { target, value } of bindings) {
    const call = unwrap(value);
    if (target.type !== 'identifier' || call.type !== 'call' || target.startIndex > site.startIndex) continue;
    const callee = call.childForFieldName('function');
    const method = callee ? lastName(callee) : '';
    if (callee?.type !== 'attribute' || !/^a?iter_/.test(method) || !roots.includes(callee.childForFieldName('object')?.text ?? '')) continue;
    return { name: target.text, async: method.startsWith('aiter_') };
  }
  return null;
}

/** The helper under `name` the module's sites will call: one already there (ours, an earlier version's, or someone else's), else a new one. */
function helperState(root: Node, name: string, waitMs: number): HelperState {
  for (const statement of named(root)) {
    const definition = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (definition?.type !== 'function_definition' || definition.childForFieldName('name')?.text !== name) continue;
    const text = definition.text;
    if (!text.includes(DOCSTRING_START)) return { kind: 'other', defaultMs: null };
    if (EARLIER_HELPER.test(text)) return { kind: 'earlier', defaultMs: null };
    const budget = /\bbudget(?:\s*:\s*float)?\s*=\s*([\d.]+)/.exec(definition.childForFieldName('parameters')?.text ?? '');
    return { kind: 'ours', defaultMs: budget ? Math.round(Number(budget[1]) * 1000) : null };
  }
  return { kind: 'new', defaultMs: waitMs > 0 ? waitMs : null };
}

/** The helpers the fixed sites call (one per flavour, sync and async), together before the first top-level statement that calls one. */
function helperEdits(planned: Planned[], context: Context, bounds: { drainTimeoutMs: number; drainMaxBytes: number }): Edit[] {
  const texts: string[] = [];
  for (const async of [false, true]) {
    const users = planned.filter((plan) => plan.result.status === 'fixed' && plan.helper?.async === async);
    if (users.length === 0) continue;
    const name = async ? ASYNC_HELPER : SYNC_HELPER;
    const state = context.helpers.get(async)!;
    if (state.kind === 'ours' || state.kind === 'earlier') continue;
    if (state.kind === 'other') {
      for (const plan of users) {
        plan.edits.length = 0;
        plan.result = { line: plan.result.line, column: plan.result.column, status: 'manual', reason: `the module defines its own \`${name}\`: rename it, or drain this site by hand` };
      }
      continue;
    }
    const timed = context.waitMs > 0;
    const limited = bounds.drainMaxBytes > 0;
    const modules: Record<string, string> = { contextlib: context.imports.requireModule('contextlib') };
    if (timed) modules.time = context.imports.requireModule('time');
    const response = responseType(context.imports);
    const text = helperText({
      name,
      async,
      modules,
      responseType: response,
      iteratorType: iteratorType(async, context.imports),
      optionalFloat: response && (timed || limited) ? optionalFloat(context) : null,
      budgetMs: context.waitMs,
      maxBytes: bounds.drainMaxBytes,
      indent: context.indentUnit,
      newline: context.newline,
      quote: quoteStyle(context.root),
      lineLength: context.project.isort.lineLength,
    });
    texts.push(`${text}${context.newline}${context.newline}`);
  }
  const callers = planned.filter((plan) => plan.result.status === 'fixed' && plan.helper).map((plan) => plan.helper!.topLevel);
  if (texts.length === 0 || callers.length === 0) return [];
  // Above the comments attached to that statement, but below the module's leading comments (a shebang, a licence).
  const header = /^(?:[ \t]*#[^\n]*\n)*/.exec(context.source)![0].length;
  const point = Math.max(insertionPoint(context.source, callers.sort((a, b) => a.startIndex - b.startIndex)[0]), header);
  return [{ start: point, end: point, text: texts.join('') }];
}

/**
 * The annotation of the read's optional timeout: `float | None` where the module's annotations are not evaluated
 * (`from __future__ import annotations`) or the project needs Python >= 3.10, else `Optional[float]` (a nested
 * function's annotations are evaluated when its `def` runs, and `float | None` raises there before 3.10).
 */
function optionalFloat(context: Context): string {
  if (context.imports.importedName('__future__', 'annotations') || versionAtLeast(context.project.requiresPython, [3, 10])) return 'float | None';
  const optional = context.imports.importedName('typing', 'Optional') ?? (context.imports.moduleName('typing') ? `${context.imports.moduleName('typing')}.Optional` : null);
  if (optional) return `${optional}[float]`;
  const added = context.imports.requireName('typing', 'Optional');
  return added ? `${added}[float]` : `${context.imports.requireModule('typing')}.Optional[float]`;
}

/** `httpx.Response` (or however the module names httpx's Response), or null. */
function responseType(imports: ModuleImports): string | null {
  for (const library of ['httpx', 'httpx2']) {
    const module = imports.moduleName(library);
    if (module) return `${module}.Response`;
    const name = imports.importedName(library, 'Response');
    if (name) return name;
  }
  return null;
}

/** `AsyncIterator[object]` / `Iterator[object]`, from the module's own `typing` or `collections.abc` imports, or added to them. */
function iteratorType(async: boolean, imports: ModuleImports): string | null {
  const name = async ? 'AsyncIterator' : 'Iterator';
  for (const module of ['collections.abc', 'typing', 'typing_extensions']) {
    const local = imports.importedName(module, name);
    if (local) return `${local}[object]`;
  }
  const typing = imports.moduleName('typing');
  if (typing) return `${typing}.${name}[object]`;
  const added = imports.requireName('collections.abc', name);
  return added ? `${added}[object]` : null;
}
