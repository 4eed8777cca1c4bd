// The vocabulary is shared with the Python front end: it lives in rules/contract/vocabulary.ts.
export {
  DEFAULT_TERMINAL_PATTERNS,
  JSON_RPC_REPLY_TOKEN,
  compilePatterns,
  exemptKind,
  isExemptToken,
  isResponseName,
  matchesTerminal,
  toSnake,
  words,
  type ExemptKind,
} from '../contract/vocabulary.js';

import { words } from '../contract/vocabulary.js';

const BODY_WORDS = new Set(['stream', 'body']);

/** `stream`, `body`, `currentStream`, `rawBody`: names that hold a body when what they yield is decoded as bytes. */
export function isBodyName(name: string): boolean {
  const list = words(name);
  return list.length > 0 && BODY_WORDS.has(list[list.length - 1]);
}

/** `abortController`, `abort_controller`, `requestAbortController`: an AbortController by its name. */
export function isAbortControllerName(name: string): boolean {
  const list = words(name);
  return list.length > 1 && list[list.length - 1] === 'controller' && list.includes('abort');
}

/**
 * The token a structural multipart end check stands for (the closing boundary of a multipart/mixed body, RFC 2046: the
 * boundary followed by `--`): like the JSON-RPC reply token, it applies while a terminal pattern matches it (the
 * defaults do, by the word `end`).
 */
export const MULTIPART_END_TOKEN = 'multipart_end';
