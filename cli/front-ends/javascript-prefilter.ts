import { createRequire } from 'node:module';
import type { Token } from 'acorn';
import { DEFAULT_CLOSE_METHODS, closeCandidatePattern, explicitCloseEvidence } from '../../rules/javascript/prefilter.js';

const JSX_FILE = /\.[jt]sx$/i;

const FOR_AWAIT = /for\s+await\b/g;
/** TypeScript's downleveled `for await`: `for (var _d = true, stream_1 = __asyncValues(stream), …; …)`. */
const DOWNLEVELED_FOR_AWAIT = /\bfor\s*\(\s*var\s[^;]{0,400}?\b__asyncValues\b/g;
const TOKENIZER_OPTIONS = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, allowAwaitOutsideFunction: true } as const;

type Tokenizer = typeof import('acorn').tokenizer;
let loadedTokenizer: Tokenizer | undefined;

/**
 * acorn's tokenizer, loaded when a file first needs it, as CommonJS: the same module instance espree (and
 * so ESLint) loads, instead of a second copy of acorn's code from its ES module build.
 */
function tokenizer(...args: Parameters<Tokenizer>): ReturnType<Tokenizer> {
  loadedTokenizer ??= (createRequire(import.meta.url)('acorn') as typeof import('acorn')).tokenizer;
  return loadedTokenizer(...args);
}

/**
 * Whether a file can hold a close the rule reports: at once, or, when only a parse can tell, the parse that tells (not
 * started until it is called: a caller that will parse the file anyway, as oxlint does, need not).
 */
export type PrefilterAnswer = boolean | (() => Promise<boolean>);
export type Prefilter = (text: string, filePath: string) => PrefilterAnswer;

/**
 * The CLI's pre-filter (lint and fix) for the rule's close methods: whether a file's text can hold a
 * close the rule reports. A file it rules out is not linted. The text test first, then the loop check below.
 */
export function prefilterFor(closeMethods: readonly string[] = DEFAULT_CLOSE_METHODS): Prefilter {
  const candidate = closeCandidatePattern(closeMethods);
  // The candidate test without its `for await` and `__asyncValues` alternatives: evidence of an explicit close.
  const explicitClose = explicitCloseEvidence(closeMethods);
  return (text, filePath) => candidate.test(text) && implicitCloseCheck(text, filePath, explicitClose);
}

/** A pre-filter's answer, the parse started where one is needed. */
export function settled(answer: PrefilterAnswer): boolean | Promise<boolean> {
  return typeof answer === 'function' ? answer() : answer;
}

/**
 * For a file that passed the pre-filter only because of `for await` or its downleveled form (no close
 * method is written in it), the only possible report is a `break`/`return`/`continue` inside such a
 * loop's body. This tokenizes each such loop from where the text names it (a tokenizer: fast) and says whether
 * some body holds such a jump; when one does, the file is parsed to keep only the loops in code. Anything it
 * cannot be sure of answers true: other close evidence, JSX, a parse error, a body that is not a block. The parse is
 * left for the caller to start.
 */
function implicitCloseCheck(text: string, filePath: string, explicitClose: RegExp): PrefilterAnswer {
  if (explicitClose.test(text) || JSX_FILE.test(filePath)) return true;
  // Fast: each place the text says `for await` (or `for (var … __asyncValues`), tokenized from there to the end of the loop body.
  const starts = [...Array.from(text.matchAll(FOR_AWAIT), (match) => match.index), ...Array.from(text.matchAll(DOWNLEVELED_FOR_AWAIT), (match) => match.index)];
  if (!starts.some((start) => loopMayJumpOut(text, start))) return false;
  // A jump was seen, perhaps in a comment or a string that only looks like a loop (JSDoc examples, code in
  // template strings): parse the file to learn which of those loops are code, and look at those alone.
  return () =>
    loadParser().then((parseSync) => {
      const offsets = loopOffsets(parseSync, text, filePath, new Set(starts));
      return offsets === null || offsets.some((offset) => loopMayJumpOut(text, offset));
    });
}

type ParseSync = typeof import('oxc-parser').parseSync;
let parser: Promise<ParseSync> | undefined;

/** oxc-parser, loaded when a file first needs it (the native engine parses with it too). */
function loadParser(): Promise<ParseSync> {
  parser ??= import('oxc-parser').then((oxc) => oxc.parseSync);
  return parser;
}

const TYPESCRIPT_FILE = /\.[cm]?tsx?$/i;
const COMMONJS_FILE = /\.c[jt]s$/i;

/**
 * Offsets of the `for` of every `for await` and of every downleveled one (a `for (` the text test found) in the
 * code, not in comments or strings, from oxc-parser's tree (native code: faster than acorn's tokenizer over the whole
 * text); null if the file does not parse.
 */
function loopOffsets(parseSync: ParseSync, text: string, filePath: string, textStarts: ReadonlySet<number>): number[] | null {
  const typeScript = TYPESCRIPT_FILE.test(filePath);
  const lang = typeScript ? (/x$/i.test(filePath) ? 'tsx' : 'ts') : 'js';
  const sourceType = COMMONJS_FILE.test(filePath) ? 'commonjs' : 'module';
  let program: unknown;
  try {
    const result = parseSync(filePath, text, { lang, sourceType, preserveParens: false });
    if (result.errors.length > 0) return null;
    program = result.program;
  } catch {
    return null;
  }
  const offsets: number[] = [];
  const pending: unknown[] = [program];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      const elements: unknown[] = node;
      for (const element of elements) pending.push(element);
    } else if (isNode(node)) {
      if ((node.type === 'ForOfStatement' && node.await === true) || (node.type === 'ForStatement' && textStarts.has(node.start))) offsets.push(node.start);
      for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) pending.push(value);
    }
  }
  return offsets;
}

function isNode(value: unknown): value is { type: string; start: number; await?: unknown } {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string' && 'start' in value && typeof value.start === 'number';
}

/**
 * Tokenizes from `start` to the end of the loop body only, one token at a time. From a real
 * `for await` this reads the loop exactly, whatever comes before it; from text in a comment or a
 * string it reads whatever follows, and the real loops of the file still decide.
 */
function loopMayJumpOut(text: string, start: number): boolean {
  let count = 0;
  let depth = 0;
  let phase: 'head' | 'body-start' | 'body' = 'head';
  // A downleveled loop is `for (` whose head calls `__asyncValues`; a `for (` without it is no async loop.
  let downleveled = false;
  let callsAsyncValues = false;
  try {
    for (const token of tokenizer(text.slice(start), TOKENIZER_OPTIONS)) {
      count++;
      const label = token.type.label;
      if (count === 1) {
        if (!isWord(token, 'for')) return true;
      } else if (count === 2) {
        if (label === '(') {
          downleveled = true;
          depth = 1;
        } else if (!isWord(token, 'await')) {
          return true;
        }
      } else if (phase === 'head') {
        if (label === '(') depth++;
        else if (count === 3 && !downleveled) return true;
        else if (label === ')' && --depth === 0) {
          if (downleveled && !callsAsyncValues) return false;
          phase = 'body-start';
        } else if (isWord(token, '__asyncValues')) callsAsyncValues = true;
      } else if (phase === 'body-start') {
        if (label !== '{') return true;
        phase = 'body';
        depth = 1;
      } else if (label === '{' || label === '${') {
        depth++;
      } else if (label === '}') {
        if (--depth === 0) return false;
      } else if (isWord(token, 'break') || isWord(token, 'return') || isWord(token, 'continue')) {
        return true;
      }
    }
  } catch {
    return true;
  }
  return true;
}

function isWord(token: Token | undefined, word: string): boolean {
  return token !== undefined && (token.type.keyword === word || (token.type.label === 'name' && 'value' in token && token.value === word));
}
