/**
 * Never worse than the original, measured on the wire: the bytes a client received after the terminal event (counted
 * as undici hands them to fetch), the connections the server accepted, and what each call returned, for the original
 * client and its rewrite side by side.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyCodemod } from '../../support/codemod.mjs';
import { measureKeepAlive } from '../../support/keepalive.mjs';
import { expectedMessages, type StreamFormat } from '../../support/sse-server.mjs';

/** node-fetch 2 (CommonJS, untyped): a fetch whose bodies are Node streams, as SDKs' custom-fetch shims accept. */
const nodeFetch = createRequire(import.meta.url)('node-fetch') as typeof fetch;

const client = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
/** The fetch clients whose drains read the body's own bytes. */
const BYTE_SHAPES: { name: string; path: string; format: StreamFormat }[] = [
  { name: 'while (true) reader loop, cancel() and return', path: client('../../../bench/clients/early-close.mjs'), format: 'sse' },
  { name: 'for await over an iterator built on the body, break', path: client('./clients/for-await-break.mjs'), format: 'sse' },
  { name: 'for await, value returned from the completion branch', path: client('./clients/for-await-return.mjs'), format: 'sse' },
  { name: 'pull() of an underlying source', path: client('./clients/pull-source.mjs'), format: 'sse' },
  { name: 'flag ends the loop through its condition, cancel() after it', path: client('./clients/flag-loop-condition.mjs'), format: 'sse' },
  { name: 'AbortController.abort() after the JSON-RPC result', path: client('./clients/jsonrpc-abort.mjs'), format: 'jsonrpc' },
  { name: 'SDK stream: async generator over a parser of the response, break', path: client('./clients/sdk-generator-parser.mjs'), format: 'sse' },
  { name: 'for await over a parser given the fetch Response (tapped), break', path: client('./clients/parser-over-response.mjs'), format: 'sse' },
  { name: 'for await over the body inside a try whose catch reconnects', path: client('./clients/retry-on-error.mjs'), format: 'sse' },
  { name: 'reader kept in a field that other calls read (awaited drain)', path: client('./clients/class-field-reader.mjs'), format: 'sse' },
  { name: 'a flag set at the terminal event, the close in a finally after a catch', path: client('./clients/finally-terminal-flag.mjs'), format: 'sse' },
  { name: 'a helper that cancels the reader it is given, called at [DONE]', path: client('./clients/helper-close-reader.mjs'), format: 'sse' },
  { name: 'a method that aborts the request, called at [DONE], then break out of for await', path: client('./clients/helper-method-for-await.mjs'), format: 'sse' },
];
/** Clients whose drains read parsed messages: bounded by time only. */
const TIME_SHAPES = [
  { name: 'for await over a parser given a value not provably a fetch Response', path: client('./clients/parser-given-value.mjs') },
  { name: 'a reader of parsed events, cancelled at [DONE]', path: client('./clients/parsed-reader.mjs') },
];
const LIMIT = 64 * 1024;
/** The most undici hands fetch at a time. */
const CHUNK = 64 * 1024;
/** A time budget no test here waits for: a close that happens came from the byte limit. */
const FAR_BUDGET_MS = 600_000;

describe.each(BYTE_SHAPES)('$name', (shape) => {
  it(`against a comment flood and one endless line, reads at most ${LIMIT} + ${CHUNK} bytes more than the original after the terminal event, and closes`, async () => {
    const fixed = await applyCodemod(shape.path, { transformOptions: { drainTimeoutMs: FAR_BUDGET_MS, drainMaxBytes: LIMIT } });
    expect(fixed.changed).toBe(true);
    expect(fixed.reports.join('\n')).not.toContain('bounded by time only');
    for (const mode of ['flood', 'endless'] as const) {
      const options = { calls: 2, server: { format: shape.format, events: 2, mode }, callTimeoutMs: 30_000, settleMs: 300 };
      const before = await measureKeepAlive(shape.path, options);
      const after = await measureKeepAlive(fixed.outPath!, options);
      expect(after.results, mode).toEqual(before.results);
      expect(after.closedByClient, mode).toBe(2);
      expect(before.bodies.length, mode).toBe(2);
      for (const [index, body] of after.bodies.entries()) {
        expect(body.afterTerminal! - before.bodies[index].afterTerminal!, `${mode}, call ${index + 1}`).toBeLessThanOrEqual(131_072);
      }
    }
  });

  it('back to back against held, trickling and endless bodies, opens at most one connection more than the original over 10 calls', async () => {
    const fixed = await applyCodemod(shape.path, { transformOptions: { drainTimeoutMs: 300 } });
    for (const mode of ['hang', 'trickle', 'endless'] as const) {
      const options = { calls: 10, server: { format: shape.format, events: 2, mode, trickleIntervalMs: 20 }, callTimeoutMs: 10_000, settleMs: 500 };
      const before = await measureKeepAlive(shape.path, options);
      const after = await measureKeepAlive(fixed.outPath!, options);
      expect(after.results, mode).toEqual(before.results);
      expect(after.connections, `${mode}: ${after.connections} against the original's ${before.connections}`).toBeLessThanOrEqual(before.connections + 1);
    }
  });
});

describe.each(TIME_SHAPES)('$name', (shape) => {
  it('is reported fixed (bounded by time only), and closes a flooding, endless or held body after a tenth of its budget', async () => {
    const fixed = await applyCodemod(shape.path, { transformOptions: { drainTimeoutMs: 2000, drainMaxBytes: LIMIT } });
    expect(fixed.changed).toBe(true);
    expect(fixed.reports).toHaveLength(1);
    expect(fixed.reports[0]).toMatch(/^\S+:\d+:\d+ fixed \(bounded by time only\): the drain reads on through the parser's messages, not the body's bytes/);
    for (const mode of ['flood', 'endless', 'hang'] as const) {
      // 200 ms (a tenth of 2000) and a margin: the time budget itself would need 2000.
      const after = await measureKeepAlive(fixed.outPath!, { calls: 2, server: { format: 'sse', events: 2, mode }, callTimeoutMs: 10_000, settleMs: 1000 });
      expect(after.results, mode).toEqual([expectedMessages(2, 'sse'), expectedMessages(2, 'sse')]);
      expect(after.closedByClient, mode).toBe(2);
    }
  });
});

describe('a custom fetch whose body is a Node stream (node-fetch 2)', () => {
  const TAPPED = BYTE_SHAPES.filter((shape) => /tapped|iterator built on the body/.test(shape.name));

  it.each(TAPPED)('$name: the rewrite reads it as the original did, and hands the connection back', async (shape) => {
    const fixed = await applyCodemod(shape.path, { transformOptions: { drainTimeoutMs: 1000 } });
    expect(fixed.output).toMatch(/tap(Body|Response)\(/);
    const agent = new http.Agent({ keepAlive: true });
    const globalFetch = globalThis.fetch;
    globalThis.fetch = nodeFetch;
    try {
      const options = { calls: 10, pauseMs: 25, args: [{ agent }], server: { format: shape.format, events: 3 } };
      const before = await measureKeepAlive(shape.path, options);
      const after = await measureKeepAlive(fixed.outPath!, options);
      expect(after.results).toEqual(Array.from({ length: 10 }, () => expectedMessages(3, shape.format)));
      expect(after.results).toEqual(before.results);
      expect(after.connections).toBeLessThanOrEqual(Math.max(2, before.connections));
      expect(after.closedByClient).toBe(0);
    } finally {
      globalThis.fetch = globalFetch;
      agent.destroy();
    }
  });
});
