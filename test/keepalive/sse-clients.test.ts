// Behaviour of the hand-written clients against a real Node http server on 127.0.0.1 that counts
// TCP connections. Asserts connection reuse (deterministic), never wall-clock latency.
//
// The server ends each response TAIL_MS after the terminal event (bytes follow it), so an early close
// reliably lands before the end of the body: undici then destroys the socket. 20 sequential calls:
// the early-close clients open 20-22 connections (undici also opens a replacement connection in the
// background after each destroyed one); the drained clients open 1-2 (the second when a call starts
// before undici has put the previous socket back in the pool). Assertions leave margin for a loaded
// machine: >= 15 and <= 2.
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { expectedMessages, startSseServer, type SseServer } from '../support/sse-server.mjs';
import { measureKeepAlive, runSequentialCalls } from '../support/keepalive.mjs';

const client = (name: string) => fileURLToPath(new URL(`../../bench/clients/${name}.mjs`, import.meta.url));
const CALLS = 20;
const TAIL_MS = 50;

describe('SSE clients against the counting server ([DONE] terminal event)', () => {
  it('early-close (reader.cancel on [DONE]) opens about one connection per call', async () => {
    const m = await measureKeepAlive(client('early-close'), { calls: CALLS, server: { tailDelayMs: TAIL_MS } });
    expect(m.requests).toBe(CALLS);
    expect(m.connections).toBeGreaterThanOrEqual(15);
    expect(m.results).toEqual(Array.from({ length: CALLS }, () => expectedMessages(3)));
  });

  it('early-close-for-await (break out of for await on [DONE]) opens about one connection per call', async () => {
    const m = await measureKeepAlive(client('early-close-for-await'), { calls: CALLS, server: { tailDelayMs: TAIL_MS } });
    expect(m.requests).toBe(CALLS);
    expect(m.connections).toBeGreaterThanOrEqual(15);
    expect(m.results).toEqual(Array.from({ length: CALLS }, () => expectedMessages(3)));
  });

  it('hand-drained (reads to EOF after [DONE]) reuses the connection: at most 2 over 20 calls', async () => {
    const m = await measureKeepAlive(client('hand-drained'), { calls: CALLS, server: { tailDelayMs: TAIL_MS } });
    expect(m.requests).toBe(CALLS);
    expect(m.connections).toBeLessThanOrEqual(2);
    expect(m.closedByClient).toBe(0);
    expect(m.results).toEqual(Array.from({ length: CALLS }, () => expectedMessages(3)));
  });

  it('early-close and hand-drained deliver the same messages, call by call', async () => {
    const early = await measureKeepAlive(client('early-close'), { calls: 5, server: { events: 7, tailDelayMs: TAIL_MS } });
    const drained = await measureKeepAlive(client('hand-drained'), { calls: 5, server: { events: 7, tailDelayMs: TAIL_MS } });
    const forAwait = await measureKeepAlive(client('early-close-for-await'), { calls: 5, server: { events: 7, tailDelayMs: TAIL_MS } });
    expect(drained.results).toEqual(early.results);
    expect(forAwait.results).toEqual(early.results);
    expect(early.results[0]).toEqual(expectedMessages(7));
  });

  it('events written one by one (separate chunks) change nothing: same messages, same reuse', async () => {
    const server = { events: 4, eventDelayMs: 2, tailDelayMs: TAIL_MS };
    const early = await measureKeepAlive(client('early-close'), { calls: 10, server });
    const drained = await measureKeepAlive(client('hand-drained'), { calls: 10, server });
    expect(early.connections).toBeGreaterThanOrEqual(8);
    expect(drained.connections).toBeLessThanOrEqual(2);
    expect(drained.results).toEqual(early.results);
    expect(early.results[9]).toEqual(expectedMessages(4));
  });
});

describe('a server that never ends the stream after [DONE] (mode hang)', () => {
  let server: SseServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('hand-drained with a 200 ms budget still returns, and the server sees the stream closed by the client', async () => {
    server = await startSseServer({ mode: 'hang' });
    const { callOnce } = (await import(client('hand-drained'))) as {
      callOnce: (url: string, init?: object, drainTimeoutMs?: number) => Promise<unknown[]>;
    };
    const s = server;
    const messages = await callOnce(s.url, {}, 200);
    expect(messages).toEqual(expectedMessages(3));
    await s.waitFor(() => s.closedByClient() >= 1, 5000);
    expect(s.closedByClient()).toBe(1);
    expect(s.finished()).toBe(0);
  }, 20_000);

  it('sequential calls each end by the budget, every stream closed by the client', async () => {
    server = await startSseServer({ mode: 'hang' });
    const s = server;
    const run = await runSequentialCalls(client('hand-drained'), s.url, 3, { args: [{}, 200] });
    expect(run.results).toEqual(Array.from({ length: 3 }, () => expectedMessages(3)));
    await s.waitFor(() => s.closedByClient() >= 3, 5000);
    expect(s.closedByClient()).toBe(3);
    expect(s.requests()).toBe(3);
  }, 20_000);

  it('the early-close client returns at once and closes the stream (the behaviour the budget falls back to)', async () => {
    server = await startSseServer({ mode: 'hang' });
    const s = server;
    const run = await runSequentialCalls(client('early-close'), s.url, 2);
    expect(run.results).toEqual([expectedMessages(3), expectedMessages(3)]);
    await s.waitFor(() => s.closedByClient() >= 2, 5000);
    expect(s.closedByClient()).toBe(2);
    // one connection per call at least (undici may also open a replacement in the background)
    expect(s.connections()).toBeGreaterThanOrEqual(2);
  }, 20_000);
});

describe('JSON-RPC over SSE against the counting server (the result is the terminal event)', () => {
  it('mcp-early-close opens about one connection per call, mcp-hand-drained at most 2, same messages', async () => {
    const server = { format: 'jsonrpc' as const, tailDelayMs: TAIL_MS };
    const early = await measureKeepAlive(client('mcp-early-close'), { calls: CALLS, server });
    const drained = await measureKeepAlive(client('mcp-hand-drained'), { calls: CALLS, server });
    expect(early.connections).toBeGreaterThanOrEqual(15);
    expect(drained.connections).toBeLessThanOrEqual(2);
    // Both modules number their requests from 1, so call i carries the same id and progress token.
    expect(drained.results).toEqual(early.results);
    const first = early.results[0] as Array<{ id?: number; result?: unknown }>;
    expect(first.slice(0, 3)).toEqual(expectedMessages(3, 'jsonrpc', 1));
    expect(first[3]).toMatchObject({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } });
  });
});
