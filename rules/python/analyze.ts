import { PYTHON_MESSAGES, brief, interpolate } from '../contract/messages.js';
import { solve, type CloseSite } from './cfg.js';
import { GraphBuilder } from './build.js';
import type { OuterCloser } from './frames.js';
import { ModuleFacts } from './module.js';
import { definitionsOf } from './tree.js';
import { outerClosers } from './outer-closers.js';
import { terminalFlagNames, terminalReturns } from './terminal-flags.js';
import type { Node, Tree } from './parser.js';
import { pythonAnalysisOptions, type PythonAnalysisOptions } from './options.js';
import { mayRecogniseTerminal } from './test-headers.js';

export interface PythonReport {
  site: CloseSite;
  /** The terminal event pending at the close. */
  event: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

/** Text that can hold a close: an explicit close call, or a jump out of a loop towards a `with` or `finally`, */
const IMPLICIT_CLOSE = /\b(?:break|return)\b/;
const CLOSE_OWNER = /\b(?:with|finally)\b/;
/** Or the end of an iteration raised by hand, which can leave a body open, */
const STOP_ITERATION = /\braise\s+Stop(?:Async)?Iteration\b/;
/** Or caught by a loop that leaves at it (the parser it calls raises it at `[DONE]`). */
/** `for item in events(...)`, `async for x in self._stream(...)`: a loop over a call, by the callee's name. */
const PRODUCER_LOOP = /\bfor\b[^\n]*?\bin\s+(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)\s*\(/g;
const CAUGHT_STOP = /\bexcept\b[^:\n]*\bStop(?:Async)?Iteration\b/;
/**
 * Every response stream the analysis knows starts at a name spelled like a response (`response`,
 * `resp`, `res`, `http_response`, `httpResponse`) or at a streaming call (`client.stream(...)`,
 * `aconnect_sse(...)`, `client.sse(...)`, `EventSource(...)`, `stream=True`, an aiohttp session).
 */
const STREAM_EVIDENCE = /[Rr]esponse|RESPONSE|(?<![A-Za-z])(?:[Rr]esp?|RESP?)(?![a-z])|\b(?:stream|sse|a?connect_sse|a?iter_sse|EventSource)\s*\(|\bstream\s*=\s*True|[Ss]ession/;

const DEFAULTS = pythonAnalysisOptions();

/**
 * The cheap pre-filter: whether a Python file's text can be reported on at all (most files cannot and are not parsed).
 * It can hold a site, and one of its tests can recognise a terminal event (test-headers.ts): a report needs both.
 */
export function mayReportPython(text: string, options: PythonAnalysisOptions = DEFAULTS): boolean {
  return mayHoldSite(text, options) && mayRecogniseTerminal(text, options.terminalText);
}

/** Whether a text (a file's, or a function body's) can hold a site: a close, and a response it may close. */
function mayHoldSite(text: string, options: PythonAnalysisOptions): boolean {
  const close = options.explicitClose.test(text) || (IMPLICIT_CLOSE.test(text) && CLOSE_OWNER.test(text) && /\bfor\b/.test(text)) || STOP_ITERATION.test(text);
  return (close && STREAM_EVIDENCE.test(text)) || mayLeaveAtCaughtStop(text);
}

/** A loop that leaves where it catches StopIteration (the body's lines may come from the caller: no stream is named). */
function mayLeaveAtCaughtStop(text: string): boolean {
  return CAUGHT_STOP.test(text) && IMPLICIT_CLOSE.test(text) && /\bfor\b/.test(text);
}

/** A loop left by a jump over a call of a generator of the module that owns a response (`async for item in events(...)`), in a body's text. */
function leavesProducer(own: string, module: ModuleFacts): boolean {
  if (!IMPLICIT_CLOSE.test(own)) return false;
  for (const match of own.matchAll(PRODUCER_LOOP)) if (module.ownerOf(match[1])) return true;
  return false;
}

/** Whether a function body may own or close a response it passes to another function of the module. */
function mayOwnResponse(text: string, options: PythonAnalysisOptions): boolean {
  return (/\bwith\b/.test(text) || options.explicitClose.test(text)) && STREAM_EVIDENCE.test(text);
}

function messageFor(site: CloseSite, event: string): string {
  if (site.kind === 'explicit') return interpolate(PYTHON_MESSAGES.explicitClose, { stream: brief(site.stream), method: site.method, event });
  if (site.method === 'abandoned') return interpolate(PYTHON_MESSAGES.abandonedIteration, { statement: brief(site.node.text), event, stream: brief(site.stream) });
  const statement = site.node.type === 'break_statement' ? 'break' : 'return';
  // A caller that passed an iterator over its response (`response.iter_lines()`) closes that response.
  const stream = site.caller && site.caller.argument.text !== site.caller.response ? site.caller.response : site.stream;
  return interpolate(PYTHON_MESSAGES.closingJump, { statement, event, closer: site.by ?? `its \`${site.method}\``, stream: brief(stream) });
}

interface Unit {
  body: Node;
  outer: OuterCloser[];
  flags: Set<string>;
}

/**
 * The function bodies of a module, and the module itself, whose text may hold a site; and the
 * functions a close from outside applies to (a nested generator over a response an enclosing `with`
 * owns, a function whose caller closes the response it passed), with that close; and in each, the
 * names bound to a terminal flag another function of the module returns.
 */
function units(root: Node, text: string, options: PythonAnalysisOptions): { units: Unit[]; module: ModuleFacts } {
  // One search in the parser's own memory (tree.ts): walking every node from JavaScript costs more than the analysis.
  const definitions = definitionsOf(root);
  const functions = definitions.filter((node) => node.type === 'function_definition');
  const classes = definitions.filter((node) => node.type === 'class_definition');
  // Each function's body and its text, asked of the parser once (each question is a call into WebAssembly).
  const bodies = functions.flatMap((fn) => {
    const body = fn.childForFieldName('body');
    return body ? [{ fn, body, text: text.slice(body.startIndex, body.endIndex) }] : [];
  });
  const candidates = bodies.filter((entry) => mayHoldSite(entry.text, options));
  const module = new ModuleFacts(functions, classes, options.patterns, options.closeMethods);
  const callers = bodies.filter((entry) => mayOwnResponse(entry.text, options)).map((entry) => entry.body);
  const outer = outerClosers(module, callers, options);
  const flagged = candidates.length > 0 ? terminalReturns(functions, options.patterns) : new Map<string, Set<number>>();
  const candidateIds = new Set(candidates.map((candidate) => candidate.body.id));
  const found: Unit[] = [{ body: root, outer: [], flags: terminalFlagNames(root, flagged) }];
  for (const { fn, body, text: own } of bodies) {
    const closers = outer.get(fn.id) ?? [];
    if (closers.length > 0 || candidateIds.has(body.id) || leavesProducer(own, module)) found.push({ body, outer: closers, flags: terminalFlagNames(body, flagged) });
  }
  return { units: found, module };
}

/** The early closes of a parsed Python file, one per site, in source order. */
export function analyzePython(tree: Tree, text: string, options: PythonAnalysisOptions = DEFAULTS): PythonReport[] {
  return analyzePythonModule(tree, text, options).reports;
}

/** The early closes of a parsed Python file, and what its functions and classes say about each other (for the rewrite). */
export function analyzePythonModule(tree: Tree, text: string, options: PythonAnalysisOptions = DEFAULTS): { reports: PythonReport[]; module: ModuleFacts } {
  const reports: PythonReport[] = [];
  const { units: found, module } = units(tree.rootNode, text, options);
  for (const unit of found) {
    const builder = new GraphBuilder(unit.body, { patterns: options.patterns, closeMethods: options.closeMethods, outer: unit.outer, flags: unit.flags, module });
    for (const { site, event } of solve(builder.graph)) {
      const start = site.node.startPosition;
      const end = site.node.endPosition;
      reports.push({
        site,
        event,
        line: start.row + 1,
        column: start.column + 1,
        endLine: end.row + 1,
        endColumn: end.column + 1,
        message: messageFor(site, event),
      });
    }
  }
  return { reports: reports.sort((a, b) => a.line - b.line || a.column - b.column), module };
}
