import { DEFAULT_TERMINAL_PATTERNS } from '../contract/vocabulary.js';

// The pre-filter's second question (analyze.ts, mayReportPython), asked without a parse: can a test of this file
// recognise a terminal event? Every terminal event of the analysis starts at a test: the condition of an `if`, `elif` or
// `while`, or a `case` pattern (build.ts; a flag another function returns, an attribute set at the event and a
// StopIteration raised at it are each found through such a test, terminal-flags.ts and module.ts). Each of those sits
// on a logical line that starts with `if`, `elif`, `while` or `case`, so a file none of whose such lines names a
// terminal word cannot be reported on. Most files that name a response and a close only name such a word in a
// docstring or a comment, and are not parsed.

const HEADER_KEYWORD = /(?:if|elif|while|case)(?![\p{L}\p{N}_])/uy;
/** What the scan stops at outside strings: comments, line continuations, line ends, brackets and quotes. */
const SPECIAL = /[#\\\n\r()[\]{}"']/g;
const LINE_END = /[\n\r]/g;
const STRING_PREFIX = /^[rRuUbBfFtT]{1,2}$/;
const IDENTIFIER_CHAR = /[\p{L}\p{N}_]/u;
/** What ends or escapes a string's text, per quote: one-line or triple-quoted, plain or with replacement fields. */
const IN_STRING = {
  "'": { line: /[\\\n\r']/g, triple: /[\\']/g, lineFormatted: /[\\\n\r'{]/g, tripleFormatted: /[\\'{]/g },
  '"': { line: /[\\\n\r"]/g, triple: /[\\"]/g, lineFormatted: /[\\\n\r"{]/g, tripleFormatted: /[\\"{]/g },
};

/** Where the scan is not sure it reads the text as Python's tokenizer does (an unclosed string or bracket). */
class Unsure extends Error {}

/**
 * The logical lines of a Python text that start with `if`, `elif`, `while` or `case` (a test's header, and in a one-line
 * statement its body), as [start, end) offsets, read as Python's tokenizer reads them: comments, strings (prefixes,
 * triple quotes, escapes, the replacement fields of f- and t-strings, nested quotes in them as Python 3.12 allows),
 * brackets and line continuations. Null where the text does not tokenize (a string or bracket left open, a closing
 * bracket with none open): the caller then reads the whole text.
 */
export function testHeaders(text: string): Array<[number, number]> | null {
  const headers: Array<[number, number]> = [];
  return someTestHeader(text, (start, end) => {
    headers.push([start, end]);
    return false;
  }) === null
    ? null
    : headers;
}

/**
 * Gives `found` each such line in turn, until it answers true: true if it did, false if no line did, null where the
 * text does not tokenize before that (see testHeaders).
 */
export function someTestHeader(text: string, found: (start: number, end: number) => boolean): boolean | null {
  try {
    return new HeaderScan(text, found).run();
  } catch (error) {
    // Unsure, or replacement fields nested past the stack (`f"{x:{x:{x:…}}}"`, thousands deep): the file is kept and
    // parsed, and a parse says what it is.
    if (error instanceof Unsure || error instanceof RangeError) return null;
    throw error;
  }
}

class HeaderScan {
  constructor(
    private readonly text: string,
    private readonly found: (start: number, end: number) => boolean,
  ) {}

  run(): boolean {
    const text = this.text;
    const length = text.length;
    let depth = 0;
    let lineStart = true;
    let header = -1;
    let i = 0;
    while (i < length) {
      if (lineStart) {
        while (i < length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\f')) i++;
        if (i >= length) break;
        const first = text[i];
        if (first !== '\n' && first !== '\r' && first !== '#' && first !== '\\') {
          lineStart = false;
          HEADER_KEYWORD.lastIndex = i;
          if (HEADER_KEYWORD.test(text)) header = i;
        }
      }
      SPECIAL.lastIndex = i;
      const special = SPECIAL.exec(text);
      if (!special) break;
      i = special.index;
      switch (text[i]) {
        case '#':
          i = lineEnd(text, i);
          break;
        case '\\':
          i = afterBackslash(text, i);
          break;
        case '\n':
        case '\r':
          i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
          if (depth === 0) {
            if (header >= 0 && this.found(header, i)) return true;
            header = -1;
            lineStart = true;
          }
          break;
        case '(':
        case '[':
        case '{':
          depth++;
          i++;
          break;
        case ')':
        case ']':
        case '}':
          if (--depth < 0) throw new Unsure();
          i++;
          break;
        default:
          i = this.string(i);
      }
    }
    if (depth !== 0) throw new Unsure();
    return header >= 0 && this.found(header, length);
  }

  /** The offset after the string whose opening quote is at `quote` (its prefix, if any, just before it). */
  private string(quote: number): number {
    const text = this.text;
    let start = quote;
    while (start > 0 && start > quote - 3 && /[A-Za-z]/.test(text[start - 1])) start--;
    const prefix = text.slice(start, quote);
    const prefixed = prefix !== '' && STRING_PREFIX.test(prefix) && (start === 0 || !IDENTIFIER_CHAR.test(text[start - 1]));
    const formatted = prefixed && /[fFtT]/.test(prefix);
    const raw = prefixed && /[rR]/.test(prefix);
    const mark = text[quote] as "'" | '"';
    const triple = text.startsWith(mark.repeat(3), quote);
    const stops = IN_STRING[mark];
    const stop = triple ? (formatted ? stops.tripleFormatted : stops.triple) : formatted ? stops.lineFormatted : stops.line;
    let i = quote + (triple ? 3 : 1);
    for (;;) {
      stop.lastIndex = i;
      const found = stop.exec(text);
      if (!found) throw new Unsure();
      i = found.index;
      const char = text[i];
      if (char === '\\') {
        const next = text[i + 1];
        if (formatted && !raw && next === 'N' && text[i + 2] === '{') {
          const close = text.indexOf('}', i + 3);
          if (close === -1) throw new Unsure();
          i = close + 1;
        } else if (formatted && (next === '{' || next === '}')) i++;
        else i = afterBackslash(text, i);
      } else if (char === mark) {
        if (!triple) return i + 1;
        if (text.startsWith(mark.repeat(3), i)) return i + 3;
        i++;
      } else if (char === '{') {
        if (text[i + 1] === '{') i += 2;
        else i = this.field(i + 1);
      } else throw new Unsure(); // a line end in a one-line string
    }
  }

  /** The offset after the replacement field of an f-string whose expression starts at `start` (its `}` included). */
  private field(start: number): number {
    const text = this.text;
    let depth = 0;
    let i = start;
    while (i < text.length) {
      const char = text[i];
      if (char === '"' || char === "'") i = this.string(i);
      else if (char === '#') i = lineEnd(text, i);
      else if (char === '\\') i = afterBackslash(text, i);
      else if (char === '(' || char === '[' || char === '{') {
        depth++;
        i++;
      } else if (char === ')' || char === ']' || (char === '}' && depth > 0)) {
        depth--;
        i++;
      } else if (char === '}') return i + 1;
      // A `:` at the field's top level starts its format spec (a walrus there must be parenthesized: `{x:=10}` is `x`
      // formatted with `=10`).
      else if (char === ':' && depth === 0) return this.formatSpec(i + 1);
      else i++;
    }
    throw new Unsure();
  }

  /** The offset after a format spec (literal text with nested fields) and the `}` that ends its field. */
  private formatSpec(start: number): number {
    const text = this.text;
    let i = start;
    while (i < text.length) {
      const char = text[i];
      if (char === '{') i = this.field(i + 1);
      else if (char === '}') return i + 1;
      else if (char === '\\') i = afterBackslash(text, i);
      else i++;
    }
    throw new Unsure();
  }
}

/** The offset of the line end after `i` (or the text's end). */
function lineEnd(text: string, i: number): number {
  LINE_END.lastIndex = i;
  return LINE_END.exec(text)?.index ?? text.length;
}

/** The offset after a backslash at `i` and what it escapes (a whole `\r\n` line end). */
function afterBackslash(text: string, i: number): number {
  return text[i + 1] === '\r' && text[i + 2] === '\n' ? i + 3 : i + 2;
}

/** The terminal patterns the words below stand for: the defaults, as the pre-filter was written for them. */
const COVERED_PATTERNS: readonly string[] = [
  '\\[done\\]',
  '(^|_)(done|end|ended|complete|completed|finish|finished|stop|stopped|terminal|terminator|sentinel)(_|$)',
  '(^|_)received_response(_|$)|(^|_)response_received(_|$)',
  '(^|_)json_?rpc_(response|result|error|reply)(_|$)',
  '^close_stream$',
];

/** A word in any case, matched case by case (`[Dd][Oo][Nn][Ee]`) so that the boundaries around it can tell case. */
function anyCase(word: string): string {
  return [...word].map((char) => `[${char.toLowerCase()}${char.toUpperCase()}]`).join('');
}

/**
 * A whole snake word of a token (vocabulary.ts `toSnake`): it starts the token, follows a character that is no ASCII
 * letter or digit (an underscore, a dot, a quote), or starts with a capital (`isDone`, `HTTPDone`); and it ends the
 * token, comes before a character that is no lower-case letter or digit, or before a capital (`doneEvent`). A token is
 * text of the file (a name, an attribute, a string's content, a callee as written), so the words a pattern finds in it
 * are found by this in the file's text. A digit before the word is let through (`2done`): more is kept, never less.
 */
function wholeWord(word: string): string {
  return `(?:(?<![A-Za-z])${anyCase(word)}|${word[0].toUpperCase()}${anyCase(word.slice(1))})(?![a-z0-9])`;
}

const SEPARATOR = '[^A-Za-z0-9]*';

/**
 * Text that a token a default terminal pattern matches (in its snake form or as written) must hold, and the JSON-RPC
 * reply member `"result"` as a string (conditions.ts). Each pattern is covered by one alternative: `[DONE]` and the
 * completion words by the words themselves; `received_response`/`response_received` by `received`; `json_rpc_*` by
 * `json` and `rpc` with at most separators between; `close_stream` likewise.
 */
const DEFAULT_TERMINAL_TEXT = new RegExp(
  [
    ...['done', 'end', 'ended', 'complete', 'completed', 'finish', 'finished', 'stop', 'stopped', 'terminal', 'terminator', 'sentinel', 'received'].map(wholeWord),
    `${anyCase('json')}${SEPARATOR}${anyCase('rpc')}`,
    `${anyCase('close')}${SEPARATOR}${anyCase('stream')}`,
    `["']result["']`,
  ].join('|'),
);

/** Whether the default terminal patterns are still the ones DEFAULT_TERMINAL_TEXT was written for. */
export function coversDefaultPatterns(patterns: readonly string[] = DEFAULT_TERMINAL_PATTERNS): boolean {
  return patterns.length === COVERED_PATTERNS.length && patterns.every((pattern, index) => pattern === COVERED_PATTERNS[index]);
}

/**
 * The text a test must hold to recognise a terminal event under the terminal patterns given (null: the defaults), or
 * null where it cannot be told without the analysis (patterns of the user's, or defaults this file was not written
 * for): then every file may.
 */
export function terminalTextFor(terminalPatterns: readonly string[] | undefined): RegExp | null {
  return terminalPatterns === undefined && coversDefaultPatterns() ? DEFAULT_TERMINAL_TEXT : null;
}

/** Whether a test of the text may recognise a terminal event: a logical line starting with a test names one. */
export function mayRecogniseTerminal(text: string, terminalText: RegExp | null): boolean {
  if (terminalText === null) return true;
  return someTestHeader(text, (start, end) => terminalText.test(text.slice(start, end))) !== false;
}
