import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyCodemod } from '../../support/codemod.mjs';
import { measureKeepAlive } from '../../support/keepalive.mjs';
import { expectedMessages, type StreamFormat } from '../../support/sse-server.mjs';

interface Shape {
  name: string;
  path: string;
  format: StreamFormat;
}

const client = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const SHAPES: Shape[] = [
  { name: 'while (true) reader loop, cancel() and return', path: fileURLToPath(new URL('../../../bench/clients/early-close.mjs', import.meta.url)), format: 'sse' },
  { name: 'for await over an iterator built on the body, break', path: client('./clients/for-await-break.mjs'), format: 'sse' },
  { name: 'for await, value returned from the completion branch', path: client('./clients/for-await-return.mjs'), format: 'sse' },
  { name: 'pull() of an underlying source', path: client('./clients/pull-source.mjs'), format: 'sse' },
  { name: 'flag ends the loop through its condition, cancel() after it', path: client('./clients/flag-loop-condition.mjs'), format: 'sse' },
  { name: 'AbortController.abort() after the JSON-RPC result', path: client('./clients/jsonrpc-abort.mjs'), format: 'jsonrpc' },
  { name: 'SDK stream: async generator, for await over a parser of the response and its controller, break', path: client('./clients/sdk-generator-parser.mjs'), format: 'sse' },
  { name: 'for await over a parser given the fetch Response (tapped), break', path: client('./clients/parser-over-response.mjs'), format: 'sse' },
  { name: 'for await over the body inside a try whose catch reconnects', path: client('./clients/retry-on-error.mjs'), format: 'sse' },
  { name: "Node http: for await over the IncomingMessage, return from an inner loop", path: client('./clients/node-http-inner-return.mjs'), format: 'sse' },
  { name: 'reader kept in a field that other calls read (awaited drain)', path: client('./clients/class-field-reader.mjs'), format: 'sse' },
  { name: "Node http: destroy() in the response's 'data' handler, then resolve", path: client('./clients/node-data-handler.mjs'), format: 'sse' },
  { name: 'a flag set at the terminal event, the close in a finally after a catch', path: client('./clients/finally-terminal-flag.mjs'), format: 'sse' },
  { name: 'a helper that cancels the reader it is given, called at [DONE] (drained, the helper as the give-up)', path: client('./clients/helper-close-reader.mjs'), format: 'sse' },
  { name: 'a method that aborts the request, called at [DONE], then break out of for await', path: client('./clients/helper-method-for-await.mjs'), format: 'sse' },
];
const CALLS = 20;
const BUDGET_MS = 200;
/** A time budget no test here waits for: a close that happens came from the byte limit. */
const FAR_BUDGET_MS = 600_000;
// The rewrite hands the result over at the terminal event and drains in the background, so a call made while the
// server still holds the previous body open (its 5 ms tail) needs a second connection. Real callers do work between
// calls; a pause longer than the tail lets the server end each body before the next call, as it would there.
const PAUSE_MS = 25;

describe.each(SHAPES)('$name', (shape) => {
  it(`the original opens about one connection per call, the rewrite at most two over ${CALLS} calls, same messages`, async () => {
    const fixed = await applyCodemod(shape.path);
    expect(fixed.reason).toBeUndefined();
    expect(fixed.changed).toBe(true);

    const options = { calls: CALLS, pauseMs: PAUSE_MS, server: { format: shape.format, events: 3 } };
    const before = await measureKeepAlive(shape.path, options);
    const after = await measureKeepAlive(fixed.outPath!, options);

    expect(before.connections).toBeGreaterThanOrEqual(CALLS - 2);
    expect(after.connections).toBeLessThanOrEqual(2);
    expect(after.results).toEqual(before.results);
    expect(after.results).toEqual(Array.from({ length: CALLS }, () => expectedMessages(3, shape.format)));
  });

  it('against a server that never ends the stream, the rewrite gives up after its budget and closes the stream', async () => {
    const fixed = await applyCodemod(shape.path, { transformOptions: { drainTimeoutMs: BUDGET_MS } });
    expect(fixed.changed).toBe(true);
    // A call that does not settle within budget + margin rejects the run; no wall-clock assertion beyond that bound.
    const hung = await measureKeepAlive(fixed.outPath!, {
      calls: 2,
      server: { format: shape.format, events: 2, mode: 'hang' },
      callTimeoutMs: BUDGET_MS + 4000,
      settleMs: 200,
    });
    expect(hung.results).toEqual([expectedMessages(2, shape.format), expectedMessages(2, shape.format)]);
    expect(hung.closedByClient).toBe(2);
  });

  it('against a server that floods the body after the terminal event, the drain stops at its byte limit (its time budget far away) and closes', async () => {
    const fixed = await applyCodemod(shape.path, { transformOptions: { drainTimeoutMs: FAR_BUDGET_MS, drainMaxBytes: 64 * 1024 } });
    expect(fixed.changed).toBe(true);
    const flood = await measureKeepAlive(fixed.outPath!, {
      calls: 2,
      server: { format: shape.format, events: 2, mode: 'flood' },
      callTimeoutMs: 30_000,
      settleMs: 500,
    });
    expect(flood.results).toEqual([expectedMessages(2, shape.format), expectedMessages(2, shape.format)]);
    // The time budget cannot have run out within this test: the byte limit closed both bodies.
    expect(flood.closedByClient).toBe(2);
  });

  it('against a server that resets the connection after the terminal event, the rewrite gives the same result and never retries', async () => {
    const fixed = await applyCodemod(shape.path, { transformOptions: { drainTimeoutMs: BUDGET_MS } });
    expect(fixed.changed).toBe(true);
    const options = { calls: 3, server: { format: shape.format, events: 2, mode: 'reset' as const, tailDelayMs: 20 }, callTimeoutMs: BUDGET_MS + 4000 };
    const before = await measureKeepAlive(shape.path, options);
    const after = await measureKeepAlive(fixed.outPath!, options);
    expect(after.results).toEqual(before.results);
    expect(after.results).toEqual(Array.from({ length: 3 }, () => expectedMessages(2, shape.format)));
    // One request per call: an error after the terminal event reached no retry or reconnect path.
    expect(after.requests).toBe(3);
  });
});
