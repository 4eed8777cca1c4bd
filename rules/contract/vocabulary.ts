// The words both front ends (JavaScript/TypeScript and Python) recognise: completion words, exempt
// words, JSON-RPC reply shapes, response names. Each front end maps its own syntax onto these.

// The same names (`response`, `fetch`, `controller`, `done`) come back in every file: split each once.
const CACHE_LIMIT = 10_000;
const snakeCache = new Map<string, string>();
const wordsCache = new Map<string, readonly string[]>();

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** Splits an identifier, property name or string into lower-case snake words: `isJSONRPCResponse` -> `is_jsonrpc_response`. */
export function toSnake(text: string): string {
  const cached = snakeCache.get(text);
  if (cached !== undefined) return cached;
  const snake = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9[\]]+/g, '_')
    .toLowerCase();
  return remember(snakeCache, text, snake);
}

export function words(text: string): readonly string[] {
  return wordsCache.get(text) ?? remember(wordsCache, text, Object.freeze(toSnake(text).split(/[_[\]]+/).filter(Boolean)));
}

/** Completion vocabulary (docs/rules/no-early-stream-close.md); each pattern is tested against the snake form of a token. */
export const DEFAULT_TERMINAL_PATTERNS: readonly string[] = [
  '\\[done\\]',
  '(^|_)(done|end|ended|complete|completed|finish|finished|stop|stopped|terminal|terminator|sentinel)(_|$)',
  '(^|_)received_response(_|$)|(^|_)response_received(_|$)',
  '(^|_)json_?rpc_(response|result|error|reply)(_|$)',
  // Gradio's SSE protocol ends a session's stream with the message `close_stream`.
  '^close_stream$',
];

/** The token a structural JSON-RPC reply check (`'result' in msg`, `msg.id === id && msg.error`) stands for. */
export const JSON_RPC_REPLY_TOKEN = 'jsonrpc_reply';

/** The members of a JSON-RPC reply: a message that has one of them is a reply (`'result' in msg`). */
export const JSON_RPC_REPLY_MEMBERS: readonly string[] = ['result', 'error'];

/** Words that make a test about errors, aborts, cancellation or timeouts, whatever its form. */
const EXEMPT_WORDS = new Set([
  'error', 'errors', 'err', 'exception', 'fail', 'failed', 'failure',
  'abort', 'aborted', 'signal', 'cancel', 'cancelled', 'canceled', 'cancellation',
  'timeout', 'timed', 'deadline', 'expired',
  'limit', 'limits', 'max', 'overflow', 'exceeded',
  'status',
  'unexpected', 'unexpectedly', 'crash', 'crashed',
]);
/** The peer itself, named as what stopped (`server_stopped`): its going away is a failure, not the stream's end. */
const PEER_WORDS = new Set(['server', 'worker', 'backend', 'upstream']);
const PEER_STOP_WORDS = new Set(['stop', 'stopped', 'shutdown', 'down', 'died', 'dead', 'gone', 'ended']);
/** Measurements: a test about them is a size or count limit only when it compares (`bytes > budget`, `++count >= 10`). */
const MEASURE_WORDS = new Set(['size', 'length', 'count', 'bytes']);
/** Success words: the branch where they do *not* hold is the abnormal one (`if (!res.ok)`). */
const SUCCESS_WORDS = new Set(['ok', 'success', 'succeeded', 'successful']);
/** JSON-RPC names an error *reply* (`isJSONRPCError`): a reply to the request, not a failure of the stream. */
const RPC_WORDS = new Set(['jsonrpc', 'rpc']);

export type ExemptKind = 'abnormal' | 'success' | null;

/** Whether a token makes its test an exempt one, and on which side (the exempt paths of docs/rules/no-early-stream-close.md). */
export function exemptKind(token: string, comparison: boolean): ExemptKind {
  const list = words(token);
  let success = false;
  for (let i = 0; i < list.length; i++) {
    const word = list[i];
    if ((word === 'error' || word === 'errors') && i > 0 && RPC_WORDS.has(list[i - 1])) continue;
    if (EXEMPT_WORDS.has(word) || (comparison && MEASURE_WORDS.has(word))) return 'abnormal';
    if (PEER_STOP_WORDS.has(word) && i > 0 && PEER_WORDS.has(list[i - 1])) return 'abnormal';
    if (SUCCESS_WORDS.has(word)) success = true;
  }
  return success ? 'success' : null;
}

export function isExemptToken(token: string): boolean {
  return exemptKind(token, true) !== null;
}

const RESPONSE_WORDS = new Set(['response', 'res', 'resp']);

/** Syntax-only response names: `response`, `res`, `resp`, `responseBody`, `http_response`. */
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
