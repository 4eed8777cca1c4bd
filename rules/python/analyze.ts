import { PYTHON_MESSAGES, brief, interpolate } from '../contract/messages.js';
import { solve, type CloseSite } from './cfg.js';
import { GraphBuilder } from './build.js';
import type { OuterCloser } from './frames.js';
import { outerClosers } from './outer-closers.js';
import { terminalFlagNames, terminalReturns } from './terminal-flags.js';
import type { Node, Tree } from './parser.js';
import { pythonAnalysisOptions, type PythonAnalysisOptions } from './options.js';

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
/** Or the end of an iteration raised by hand, which can leave a body open. */
const STOP_ITERATION = /\braise\s+Stop(?:Async)?Iteration\b/;
/**
 * Every response stream the analysis knows starts at a name spelled like a response (`response`,
 * `resp`, `res`, `http_response`, `httpResponse`) or at a streaming call (`client.stream(...)`,
 * `aconnect_sse(...)`, `client.sse(...)`, `EventSource(...)`, `stream=True`, an aiohttp session).
 */
const STREAM_EVIDENCE = /[Rr]esponse|RESPONSE|(?<![A-Za-z])(?:[Rr]esp?|RESP?)(?![a-z])|\b(?:stream|sse|connect_sse|EventSource)\s*\(|\bstream\s*=\s*True|[Ss]ession/;

const DEFAULTS = pythonAnalysisOptions();

/** The cheap pre-filter: whether a Python text can hold a site at all (most files cannot and are not parsed). */
export function mayReportPython(text: string, options: PythonAnalysisOptions = DEFAULTS): boolean {
  const close = options.explicitClose.test(text) || (IMPLICIT_CLOSE.test(text) && CLOSE_OWNER.test(text) && /\bfor\b/.test(text)) || STOP_ITERATION.test(text);
  return close && STREAM_EVIDENCE.test(text);
}

function messageFor(site: CloseSite, event: string): string {
  if (site.kind === 'explicit') return interpolate(PYTHON_MESSAGES.explicitClose, { stream: brief(site.stream), method: site.method, event });
  if (site.method === 'abandoned') return interpolate(PYTHON_MESSAGES.abandonedIteration, { statement: brief(site.node.text), event, stream: brief(site.stream) });
  const statement = site.node.type === 'break_statement' ? 'break' : 'return';
  return interpolate(PYTHON_MESSAGES.closingJump, { statement, event, closer: site.by ?? `its \`${site.method}\``, stream: brief(site.stream) });
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
function units(root: Node, text: string, options: PythonAnalysisOptions): Unit[] {
  const candidates: Node[] = [];
  const functions: Node[] = [];
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend && node.type === 'function_definition') {
        functions.push(node);
        const body = node.childForFieldName('body');
        if (body && mayReportPython(text.slice(body.startIndex, body.endIndex), options)) candidates.push(body);
      }
      if (descend && cursor.gotoFirstChild()) continue;
      descend = true;
      if (cursor.gotoNextSibling()) continue;
      if (!cursor.gotoParent()) break;
      descend = false;
    }
  } finally {
    cursor.delete();
  }
  const outer = outerClosers(functions, candidates, options);
  const flagged = candidates.length > 0 ? terminalReturns(functions, options.patterns) : new Map<string, Set<number>>();
  const found: Unit[] = [{ body: root, outer: [], flags: terminalFlagNames(root, flagged) }];
  for (const fn of functions) {
    const body = fn.childForFieldName('body');
    if (!body) continue;
    const closers = outer.get(fn.id) ?? [];
    if (closers.length > 0 || candidates.some((candidate) => candidate.id === body.id)) found.push({ body, outer: closers, flags: terminalFlagNames(body, flagged) });
  }
  return found;
}

/** The early closes of a parsed Python file, one per site, in source order. */
export function analyzePython(tree: Tree, text: string, options: PythonAnalysisOptions = DEFAULTS): PythonReport[] {
  const reports: PythonReport[] = [];
  for (const unit of units(tree.rootNode, text, options)) {
    const builder = new GraphBuilder(unit.body, { patterns: options.patterns, closeMethods: options.closeMethods, outer: unit.outer, flags: unit.flags });
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
  return reports.sort((a, b) => a.line - b.line || a.column - b.column);
}
