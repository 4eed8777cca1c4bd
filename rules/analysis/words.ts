/** Splits an identifier, property name or string into lower-case snake words: `isJSONRPCResponse` -> `is_jsonrpc_response`. */
export function toSnake(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9[\]]+/g, '_')
    .toLowerCase();
}

export function words(text: string): string[] {
  return toSnake(text).split(/[_[\]]+/).filter(Boolean);
}

/** Completion vocabulary of SPEC §1; each pattern is tested against the snake form of a token. */
export const DEFAULT_TERMINAL_PATTERNS: readonly string[] = [
  '\\[done\\]',
  '(^|_)(done|end|ended|complete|completed|finish|finished|stop|stopped|terminal|terminator)(_|$)',
  '(^|_)received_response(_|$)|(^|_)response_received(_|$)',
  '(^|_)json_?rpc_(response|result|error)(_|$)',
];

const EXEMPT_WORDS = new Set([
  'error', 'errors', 'err', 'exception', 'fail', 'failed', 'failure',
  'abort', 'aborted', 'signal', 'cancel', 'cancelled', 'canceled', 'cancellation',
  'timeout', 'timed', 'deadline', 'expired',
  'limit', 'limits', 'max', 'size', 'length', 'count', 'bytes', 'overflow', 'exceeded',
  'status', 'ok',
]);

export function isExemptToken(token: string): boolean {
  return words(token).some((word) => EXEMPT_WORDS.has(word));
}

const RESPONSE_WORDS = new Set(['response', 'res', 'resp']);

/** Syntax-only source of SPEC §1: names such as `response`, `res`, `resp`, `responseBody`. */
export function isResponseName(name: string): boolean {
  return words(name).some((word) => RESPONSE_WORDS.has(word));
}

export function compilePatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map((source) => new RegExp(source, 'i'));
}

export function matchesTerminal(token: string, patterns: readonly RegExp[]): boolean {
  const snake = toSnake(token);
  return patterns.some((pattern) => pattern.test(snake) || pattern.test(token));
}
