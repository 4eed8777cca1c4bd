// The options of the stream server, and their check: the same rules for the JavaScript API, the flags
// of `drainguard serve`/`prove` and a JSON script file.
import { BODY_FORMATS, type BodyFormat } from './frames.js';

/** What the server does after the terminal event. */
export type AfterTerminal = 'end' | 'silent' | 'trickle' | 'flood' | 'endless' | 'reset';
/** The bodies a client must survive after the terminal event. */
export type HostileMode = Exclude<AfterTerminal, 'end'>;

export const MODES: readonly AfterTerminal[] = ['end', 'silent', 'trickle', 'flood', 'endless', 'reset'];
export const HOSTILE_MODES: readonly HostileMode[] = ['silent', 'trickle', 'flood', 'endless', 'reset'];

export interface StreamServerOptions {
  /**
   * After the terminal event: 'end' writes `tail` after `tailDelayMs` and ends the body (default);
   * 'silent' holds it open and writes nothing; 'trickle' writes a keep-alive comment every
   * `trickleIntervalMs`; 'flood' writes filler as fast as the client reads, `floodBytes` of it, then
   * holds the body open; 'endless' writes one line that never ends (no line break) the same way;
   * 'reset' resets the connection (TCP RST) after `tailDelayMs`.
   */
  mode?: AfterTerminal;
  /** 'sse' (default; terminal `data: [DONE]`), 'ndjson' (terminal `{"type":"done"}`), 'jsonrpc' (SSE `event: message` frames; terminal: the JSON-RPC reply to the request's id). */
  format?: BodyFormat;
  /** How many generated events precede the terminal event (default 3), or the payloads themselves (a string is sent as it is, anything else as JSON). */
  events?: number | readonly unknown[];
  /** The terminal event's payload (for 'jsonrpc': the reply's `result`). */
  terminal?: unknown;
  /** Written after the terminal event, right before the end, in mode 'end' (default: an SSE comment, or an empty NDJSON line). */
  tail?: string;
  /** Delay between the terminal event and the end ('end') or the reset ('reset'), in ms (default 20). */
  tailDelayMs?: number;
  /** Delay between events, in ms (default 0: all written at once). */
  eventDelayMs?: number;
  /** Interval of the keep-alive comments in mode 'trickle', in ms (default 100). */
  trickleIntervalMs?: number;
  /** Bytes of filler in modes 'flood' and 'endless' (default 64 MiB), after which the body is held open silently. */
  floodBytes?: number;
  /** In modes 'silent', 'trickle', 'flood' and 'endless', the server destroys the response after this long, in ms (default 120000). */
  holdMaxMs?: number;
  /** http.Server keepAliveTimeout, in ms (default 5000). */
  keepAliveTimeoutMs?: number;
  /** The port on 127.0.0.1 (default 0: any free port). */
  port?: number;
}

export const DEFAULT_TAIL_DELAY_MS = 20;
export const DEFAULT_TRICKLE_INTERVAL_MS = 100;

const MAX_TIMER_MS = 2 ** 31 - 1;

const milliseconds = (min: number) => ({ min, max: MAX_TIMER_MS, what: `a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}` });

/** Each whole-number option: its range, and how a message names it. */
const NUMBERS: Record<string, { min: number; max: number; what: string }> = {
  tailDelayMs: milliseconds(0),
  eventDelayMs: milliseconds(0),
  trickleIntervalMs: milliseconds(1),
  floodBytes: { min: 0, max: Number.MAX_SAFE_INTEGER, what: 'a whole number of bytes' },
  holdMaxMs: milliseconds(1),
  keepAliveTimeoutMs: milliseconds(0),
  port: { min: 0, max: 65535, what: 'a port number from 0 to 65535' },
};
const MAX_EVENTS = 100_000;

export const OPTION_NAMES: readonly string[] = ['mode', 'format', 'events', 'terminal', 'tail', ...Object.keys(NUMBERS)];

const isWhole = (value: unknown, min: number, max: number): boolean => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** Why `options` are not valid StreamServerOptions (one sentence), or undefined when they are. */
export function streamServerOptionsError(options: unknown): string | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return 'the options must be an object';
  const record = options as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (!OPTION_NAMES.includes(key)) return `unknown option '${key}' (known: ${OPTION_NAMES.join(', ')})`;
    const range = NUMBERS[key];
    if (range && !isWhole(value, range.min, range.max)) {
      return `'${key}' must be ${range.what}, got ${JSON.stringify(value)}`;
    }
  }
  const { mode, format, events, tail } = record;
  if (mode !== undefined && !MODES.includes(mode as AfterTerminal)) return `'mode' must be one of ${MODES.join(', ')}, got ${JSON.stringify(mode)}`;
  if (format !== undefined && !BODY_FORMATS.includes(format as BodyFormat)) {
    return `'format' must be one of ${BODY_FORMATS.join(', ')}, got ${JSON.stringify(format)}`;
  }
  if (events !== undefined && !Array.isArray(events) && !isWhole(events, 0, MAX_EVENTS)) {
    return `'events' must be a whole number from 0 to ${MAX_EVENTS} or a list of payloads, got ${JSON.stringify(events)}`;
  }
  if (tail !== undefined && typeof tail !== 'string') return `'tail' must be a string, got ${JSON.stringify(tail)}`;
  return undefined;
}
