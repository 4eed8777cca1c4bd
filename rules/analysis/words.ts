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
