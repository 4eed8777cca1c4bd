import type { Node, Tree } from './parser.js';
import { firstSyntaxError } from './parser.js';
import { tokenize, type LogicalLine, type Position } from './tokens.js';

/** A syntax error as CPython names it: 1-based line and column (CPython's `lineno` and `offset`) and its message. */
export interface PythonSyntaxError {
  line: number;
  column: number;
  message: string;
}

interface Candidate {
  position: Position;
  message: string;
  generic: boolean;
  /** CPython raises it without looking at the rest of the file (`unexpected indent`). */
  final?: boolean;
}

const BLOCK_KINDS: Record<string, string> = {
  def: 'function definition',
  class: 'class definition',
  if: "'if' statement",
  match: "'match' statement",
  case: "'case' statement",
  elif: "'elif' statement",
  else: "'else' statement",
  for: "'for' statement",
  while: "'while' statement",
  with: "'with' statement",
  try: "'try' statement",
  except: "'except' statement",
  finally: "'finally' statement",
};
/** Statements whose header must end with `:` (`match`/`case` are soft keywords: a name elsewhere). */
const COMPOUND = new Set(['def', 'class', 'if', 'elif', 'else', 'for', 'while', 'with', 'try', 'except', 'finally']);
const SOFT_COMPOUND = new Set(['match', 'case']);

function before(a: Position, b: Position): boolean {
  return a.row < b.row || (a.row === b.row && a.column < b.column);
}

function keyword(line: LogicalLine): string {
  return line.first === 'async' ? line.second : line.first;
}

function isHeaderWithoutColon(line: LogicalLine): boolean {
  if (!line.complete || line.hasColon) return false;
  const word = keyword(line);
  // `match`/`case` are soft keywords: `match x` and `case 1` are headers, `match = 5` and `match(x)` are not.
  return COMPOUND.has(word) || (SOFT_COMPOUND.has(word) && /^[\p{L}\p{N}_"'[{-]/u.test(line.second));
}

/** Where CPython's parser stops, guessed from tree-sitter's first ERROR or MISSING node. */
function treeSitterPosition(node: Node): Position {
  if (node.isMissing || node.type !== 'ERROR') return node.startPosition;
  const children = node.children.filter((child): child is Node => child !== null);
  const last = children.at(-1);
  const next = node.nextSibling ?? node.parent?.nextSibling ?? null;
  const nextOnLine = next !== null && next.startPosition.row === node.endPosition.row ? next.startPosition : null;
  // `x = 1 +` at the end of a line: the parser stops at the NEWLINE after it.
  if (last && !last.isNamed && nextOnLine === null && node.startPosition.row === node.endPosition.row) return node.endPosition;
  // `a b`: tree-sitter dropped a valid prefix (`a`); the parser stops at the token after it.
  if (children.length === 1 && children[0].isNamed) return nextOnLine ?? node.endPosition;
  return node.startPosition;
}

/** The parser's own errors, by the logical lines: a header without `:`, an unexpected indent, a missing block. */
function lineErrors(lines: readonly LogicalLine[]): Candidate[] {
  const found: Candidate[] = [];
  lines.forEach((line, index) => {
    const previous = lines[index - 1];
    if (previous?.opensBlock && !line.indented) {
      const kind = BLOCK_KINDS[keyword(previous)];
      found.push({ position: { row: line.row, column: line.column }, message: kind ? `expected an indented block after ${kind} on line ${previous.row + 1}` : 'expected an indented block', generic: false });
    } else if (line.indented && !previous?.opensBlock) {
      found.push({ position: { row: line.row, column: line.column - 1 }, message: 'unexpected indent', generic: false, final: true });
    }
    if (isHeaderWithoutColon(line)) found.push({ position: line.end, message: "expected ':'", generic: false });
  });
  const last = lines.at(-1);
  if (last?.opensBlock) {
    const kind = BLOCK_KINDS[keyword(last)];
    found.push({ position: last.end, message: kind ? `expected an indented block after ${kind} on line ${last.row + 1}` : 'expected an indented block', generic: false });
  }
  return found;
}

/**
 * The syntax error of a Python file tree-sitter could not parse, named as CPython 3.11 names it (the
 * common cases: a header without `:`, an unclosed or mismatched bracket, an unterminated string, an
 * indentation error; else `invalid syntax` where the parser stops), or null when tree-sitter parsed
 * it. tree-sitter accepts a little that CPython rejects (Python 2 `print` statements, a bad dedent
 * in an otherwise valid file); such files are linted, not reported.
 */
export function pythonSyntaxError(tree: Tree, text: string): PythonSyntaxError | null {
  const node = firstSyntaxError(tree.rootNode);
  if (!node) return null;
  const { lines, error, unclosed, statementInBrackets } = tokenize(text);
  const parser = [genericError(treeSitterPosition(node), node.isMissing, lines, unclosed, statementInBrackets), ...lineErrors(lines)].reduce((first, candidate) =>
    before(candidate.position, first.position) ? candidate : first,
  );
  let chosen: { position: Position; message: string } = parser;
  const innermost = unclosed.at(-1);
  const lastEnd = lines.at(-1)?.end;
  if (error && !before(parser.position, error.at)) chosen = error;
  else if (error && !parser.final) {
    // CPython tokenizes the rest of the file after a parser error: a tokenizer error there names the error instead,
    chosen = error;
  } else if (innermost && !parser.final && ((parser.generic && lastEnd !== undefined && !before(parser.position, lastEnd)) || innermost.position.row < parser.position.row)) {
    // as does a bracket the file ends inside of, when it opened on an earlier line than the error (or the parser read to the end).
    chosen = { position: innermost.position, message: `'${innermost.char}' was never closed` };
  }
  return { line: chosen.position.row + 1, column: chosen.position.column + 1, message: chosen.message };
}

/**
 * Where the parser stops with a generic `invalid syntax`. tree-sitter's position is the guess, but the
 * parser reads a compound statement's header up to its missing `:` (that error is named on its own), and
 * reads on inside an unclosed bracket that opens after tree-sitter's error (or past an ERROR inside
 * one): to a statement keyword inside it, or to the end of the file. A token tree-sitter found missing
 * is where the parser stops.
 */
function genericError(position: Position, missing: boolean, lines: readonly LogicalLine[], unclosed: readonly { position: Position }[], statementInBrackets: Position | null): Candidate {
  const outermost = unclosed[0];
  let at = position;
  if (outermost && before(position, outermost.position)) at = statementInBrackets ?? END;
  else if (outermost && statementInBrackets && !missing && before(position, statementInBrackets)) at = statementInBrackets;
  const header = lines.find((line) => line.row <= at.row && !before(line.end, at) && isHeaderWithoutColon(line));
  return { position: header ? header.end : at, message: header ? "expected ':'" : 'invalid syntax', generic: header === undefined };
}

const END: Position = { row: Number.MAX_SAFE_INTEGER, column: 0 };
