/**
 * Just enough of Python's tokenizer to name a syntax error as CPython does: brackets, strings,
 * comments, line continuations, logical lines and their indentation. Positions are 0-based rows and
 * columns. Run only on a file tree-sitter could not parse, so it costs a valid file nothing.
 */

export interface Position {
  row: number;
  column: number;
}

/** An error CPython's tokenizer raises when it reaches `at`, reported at `position`. */
export interface TokenizerError {
  at: Position;
  position: Position;
  message: string;
}

export interface LogicalLine {
  /** First row of the line, the column of its first token, and its indentation width (tabs to multiples of 8). */
  row: number;
  column: number;
  indent: number;
  /** The first two tokens: a keyword names a compound statement (`async` `def`). */
  first: string;
  second: string;
  /** Just after the last token of the line (comments excluded). */
  end: Position;
  /** The line ends with a `:` outside brackets: a block must follow. */
  opensBlock: boolean;
  /** The line has a `:` outside brackets. */
  hasColon: boolean;
  /** The line comes after one indented deeper than the line before it (an INDENT token). */
  indented: boolean;
  /** The line ended outside brackets (false for a line the file ends inside a bracket of). */
  complete: boolean;
}

export interface Tokenized {
  lines: LogicalLine[];
  /** The first error the tokenizer raises, if any (tokenizing stops there). */
  error: TokenizerError | null;
  /** Brackets still open at the end of the file, innermost last. */
  unclosed: { char: string; position: Position }[];
  /** The first keyword that only starts a statement (`def`, `return`, …) found inside brackets: the parser stops there. */
  statementInBrackets: Position | null;
}

const STATEMENT_KEYWORDS = new Set(['def', 'class', 'return', 'import', 'while', 'with', 'try', 'except', 'finally', 'raise', 'pass', 'break', 'continue', 'global', 'nonlocal', 'del', 'assert', 'elif']);

const OPENERS = new Set(['(', '[', '{']);
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
const WORD = /[\p{L}\p{N}_]+/uy;
const STRING_PREFIX = /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])$/;
const BLANK = /[ \t\f]/;

function indentWidths(text: string): { width: number; alternate: number } {
  let width = 0;
  let alternate = 0;
  for (const char of text) {
    if (char === '\t') {
      width = (Math.floor(width / 8) + 1) * 8;
      alternate++;
    } else if (char === '\f') {
      width = 0;
      alternate = 0;
    } else {
      width++;
      alternate++;
    }
  }
  return { width, alternate };
}

/** Tokenizes `text` into logical lines, stopping at the first tokenizer error. */
export function tokenize(source: string): Tokenized {
  const text = source.replace(/\r\n?/g, '\n');
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const at = (offset: number): Position => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { row: low, column: offset - lineStarts[low] };
  };
  const lineEnd = (row: number): number => (row + 1 < lineStarts.length ? lineStarts[row + 1] - 1 : text.length);

  const lines: LogicalLine[] = [];
  const brackets: { char: string; position: Position }[] = [];
  const indents = [{ width: 0, alternate: 0 }];
  let current: LogicalLine | null = null;
  let statementInBrackets: Position | null = null;
  let i = 0;
  const fail = (offset: number, message: string, position: Position = at(offset)): Tokenized => ({
    lines,
    error: { at: at(offset), position, message },
    unclosed: [],
    statementInBrackets,
  });

  while (i < text.length) {
    if (!current) {
      // The start of a logical line: its indentation, unless it is blank or a comment.
      const row = at(i).row;
      let j = i;
      while (j < text.length && BLANK.test(text[j])) j++;
      if (j >= text.length || text[j] === '\n' || text[j] === '#') {
        const next = text.indexOf('\n', j);
        if (next === -1) break;
        i = next + 1;
        continue;
      }
      const { width, alternate } = indentWidths(text.slice(i, j));
      let top = indents[indents.length - 1];
      const indented = width > top.width;
      if (indented) {
        if (alternate <= top.alternate) return fail(j, 'inconsistent use of tabs and spaces in indentation', { row, column: 0 });
        indents.push({ width, alternate });
      } else {
        while (indents.length > 1 && width < indents[indents.length - 1].width) indents.pop();
        top = indents[indents.length - 1];
        if (width !== top.width) return fail(j, 'unindent does not match any outer indentation level', { row, column: lineEnd(row) - lineStarts[row] });
        if (alternate !== top.alternate) return fail(j, 'inconsistent use of tabs and spaces in indentation', { row, column: 0 });
      }
      current = { row, column: j - lineStarts[row], indent: width, first: '', second: '', end: at(j), opensBlock: false, hasColon: false, indented, complete: true };
      i = j;
    }
    const char = text[i];
    if (BLANK.test(char)) {
      i++;
      continue;
    }
    if (char === '#') {
      const next = text.indexOf('\n', i);
      i = next === -1 ? text.length : next;
      continue;
    }
    if (char === '\n') {
      i++;
      if (brackets.length === 0) {
        lines.push(current);
        current = null;
      }
      continue;
    }
    if (char === '\\') {
      if (text[i + 1] === '\n' || i + 1 === text.length) {
        i += 2;
        continue;
      }
      return fail(i + 1, 'unexpected character after line continuation character');
    }
    const start = i;
    let token: string;
    WORD.lastIndex = i;
    const word = WORD.exec(text)?.[0];
    const prefixed = word !== undefined && STRING_PREFIX.test(word) && (text[i + word.length] === '"' || text[i + word.length] === "'");
    if (prefixed || char === '"' || char === "'") {
      const quoteAt = prefixed ? i + word.length : i;
      const end = stringEnd(text, quoteAt);
      if (end === null) {
        const triple = text.startsWith(text[quoteAt].repeat(3), quoteAt);
        const detected = triple ? at(text.length).row + (text.endsWith('\n') ? 0 : 1) : at(start).row + 1;
        return fail(start, `unterminated ${triple ? 'triple-quoted ' : ''}string literal (detected at line ${detected})`);
      }
      token = 'STRING';
      i = end;
    } else if (word !== undefined) {
      token = word;
      if (brackets.length > 0 && STATEMENT_KEYWORDS.has(word)) statementInBrackets ??= at(i);
      i += word.length;
    } else if (OPENERS.has(char)) {
      brackets.push({ char, position: at(i) });
      token = char;
      i++;
    } else if (CLOSERS[char]) {
      const open = brackets.pop();
      if (!open) return fail(i, `unmatched '${char}'`);
      if (open.char !== CLOSERS[char]) {
        const where = open.position.row === at(i).row ? '' : ` on line ${open.position.row + 1}`;
        return fail(i, `closing parenthesis '${char}' does not match opening parenthesis '${open.char}'${where}`);
      }
      token = char;
      i++;
    } else if (char === ':' && text[i + 1] === '=') {
      token = ':=';
      i += 2;
    } else {
      token = char;
      i++;
    }
    if (!current.first) current.first = token;
    else if (!current.second) current.second = token;
    const topLevel = brackets.length === 0;
    if (token === ':' && topLevel) current.hasColon = true;
    current.opensBlock = token === ':' && topLevel;
    current.end = at(i);
  }
  if (current) lines.push({ ...current, complete: brackets.length === 0 });
  return { lines, error: null, unclosed: brackets, statementInBrackets };
}

/** The offset just after the string whose opening quote is at `quoteAt`, or null when it is not closed. */
function stringEnd(text: string, quoteAt: number): number | null {
  const quote = text[quoteAt];
  const triple = text.startsWith(quote.repeat(3), quoteAt);
  for (let i = quoteAt + (triple ? 3 : 1); i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '\n' && !triple) return null;
    else if (char === quote && (!triple || text.startsWith(quote.repeat(3), i))) return i + (triple ? 3 : 1);
  }
  return null;
}
