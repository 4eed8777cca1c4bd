// The vocabulary is shared with the Python front end: it lives in rules/vocabulary.ts.
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
} from '../vocabulary.js';
