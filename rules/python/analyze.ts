import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from '../vocabulary.js';
import { solve, type CloseSite } from './cfg.js';
import { GraphBuilder } from './build.js';
import type { Node, Tree } from './parser.js';

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

const DEFAULT_PATTERNS = compilePatterns(DEFAULT_TERMINAL_PATTERNS);

/** Text that can hold a close: an explicit close call, or a jump out of a loop towards a `with` or `finally`. */
const EXPLICIT_CLOSE = /\.\s*(?:a?close|release)\s*\(/;
const IMPLICIT_CLOSE = /\b(?:break|return)\b/;
const CLOSE_OWNER = /\b(?:with|finally)\b/;
/**
 * Every response stream the analysis knows starts at a name spelled like a response (`response`,
 * `resp`, `res`, `http_response`, `httpResponse`) or at a streaming call (`client.stream(...)`,
 * `aconnect_sse(...)`, `EventSource(...)`, `stream=True`, an aiohttp session).
 */
const STREAM_EVIDENCE = /[Rr]esponse|RESPONSE|(?<![A-Za-z])(?:[Rr]esp?|RESP?)(?![a-z])|\b(?:stream|connect_sse|EventSource)\s*\(|\bstream\s*=\s*True|[Ss]ession/;

/** The cheap pre-filter: whether a Python text can hold a site at all (most files cannot and are not parsed). */
export function mayReportPython(text: string): boolean {
  const close = EXPLICIT_CLOSE.test(text) || (IMPLICIT_CLOSE.test(text) && CLOSE_OWNER.test(text) && /\bfor\b/.test(text));
  return close && STREAM_EVIDENCE.test(text);
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function messageFor(site: CloseSite, event: string): string {
  if (site.kind === 'explicit') {
    return `\`${shorten(site.stream)}\` is closed with \`${site.method}()\` after the terminal event \`${event}\` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (\`drainguard fix\`).`;
  }
  const jump = site.node.type === 'break_statement' ? 'break' : 'return';
  return `\`${jump}\` leaves the loop after the terminal event \`${event}\` before EOF, and its \`${site.method}\` closes \`${shorten(site.stream)}\`: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (\`drainguard fix\`).`;
}

/** The function bodies of a module, and the module itself, whose text may hold a site. */
function units(root: Node, text: string): Node[] {
  const found: Node[] = [root];
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend && node.type === 'function_definition') {
        const body = node.childForFieldName('body');
        if (body && mayReportPython(text.slice(body.startIndex, body.endIndex))) found.push(body);
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
  return found;
}

/** The early closes of a parsed Python file, one per site, in source order. */
export function analyzePython(tree: Tree, text: string, patterns: readonly RegExp[] = DEFAULT_PATTERNS): PythonReport[] {
  const reports: PythonReport[] = [];
  for (const unit of units(tree.rootNode, text)) {
    const builder = new GraphBuilder(unit, patterns);
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
