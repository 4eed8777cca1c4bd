// The text of a scripted streaming body: events in one of three wire formats, the terminal event, and
// what can follow the terminal event (the tail of a body that ends, a trickled keep-alive, a flood).
export type BodyFormat = 'sse' | 'ndjson' | 'jsonrpc';

export const BODY_FORMATS: readonly BodyFormat[] = ['sse', 'ndjson', 'jsonrpc'];

export const CONTENT_TYPES: Record<BodyFormat, string> = {
  sse: 'text/event-stream',
  ndjson: 'application/x-ndjson',
  jsonrpc: 'text/event-stream',
};

/** Written after the terminal event, right before the end, in mode 'end' (by default). */
export const DEFAULT_TAIL: Record<BodyFormat, string> = { sse: ': end of stream\n\n', ndjson: '\n', jsonrpc: ': end of stream\n\n' };

/** Written every trickle interval in mode 'trickle': an SSE comment, or an empty NDJSON line. */
export const TRICKLE: Record<BodyFormat, string> = { sse: ': keep-alive\n\n', ndjson: '\n', jsonrpc: ': keep-alive\n\n' };

const FLOOD_CHUNK_BYTES = 64 * 1024;

/** One 64 KiB chunk of filler that parses as nothing: SSE comment lines, or empty NDJSON lines. */
export function floodChunk(format: BodyFormat): string {
  if (format === 'ndjson') return '\n'.repeat(FLOOD_CHUNK_BYTES);
  const line = `: ${'x'.repeat(1021)}\n`;
  return line.repeat(FLOOD_CHUNK_BYTES / line.length);
}

/** One 64 KiB piece of a line that never ends (mode 'endless'): the start of an event whose line break never comes. */
export function endlessLineChunk(format: BodyFormat, first: boolean): string {
  const start = first ? (format === 'ndjson' ? '{"text":"' : 'data: ') : '';
  return start + 'x'.repeat(FLOOD_CHUNK_BYTES - start.length);
}

/** The generated event `i` of `events` (what a client delivers for it). */
export function generatedEvent(format: BodyFormat, i: number, events: number, progressToken: string | number): unknown {
  if (format === 'ndjson') return { type: 'delta', index: i, text: `event ${i}` };
  if (format === 'jsonrpc') return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: i + 1, total: events } };
  return { index: i, text: `event ${i}` };
}

/** The messages a client collects for `events` generated events of `format`, the terminal event excluded. */
export function expectedMessages(events = 3, format: BodyFormat = 'sse', progressToken: string | number = 1): unknown[] {
  return Array.from({ length: events }, (_, i) => generatedEvent(format, i, events, progressToken));
}

/** A payload on the wire: a string as it is, anything else as JSON. */
function text(payload: unknown): string {
  return typeof payload === 'string' ? payload : JSON.stringify(payload);
}

/** One event carrying `payload`: an SSE `data:` event (`event: message` for JSON-RPC), or an NDJSON line. */
export function frame(format: BodyFormat, payload: unknown): string {
  if (format === 'ndjson') return `${text(payload)}\n`;
  const data = text(payload)
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return format === 'jsonrpc' ? `event: message\n${data}\n` : `${data}\n`;
}

/**
 * The terminal event: `terminal` if given (for JSON-RPC, the reply's `result`), else `data: [DONE]`,
 * `{"type":"done"}`, or the JSON-RPC reply to the request's id.
 */
export function terminalFrame(format: BodyFormat, terminal: unknown, rpcId: string | number): string {
  if (format === 'jsonrpc') {
    const result = terminal === undefined ? { content: [{ type: 'text', text: 'ok' }] } : terminal;
    return frame(format, { jsonrpc: '2.0', id: rpcId, result });
  }
  if (terminal !== undefined) return frame(format, terminal);
  return format === 'ndjson' ? frame(format, { type: 'done' }) : frame(format, '[DONE]');
}
