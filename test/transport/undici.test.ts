// drainguard/undici (the built dist/undici.js) against the project's real servers on 127.0.0.1: Node's built-in
// fetch and undici's own request() over an undici Agent composed with drainOnAbort(), the same Agent without it
// as the baseline. Connections, requests and closes are counted by the server; the drain's end is read from
// onDrain. No latency is asserted: waits are bounded by generous timeouts.
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Agent, request, upgrade, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../support/delay-proxy.mjs';
import { startCountingServer, startStreamServer, type CountingServer, type StreamServerOptions } from '../support/testing-kit.mjs';
import { drainOnAbort, installDrainOnAbort, type DrainOnAbortOptions, type DrainReport } from '../support/transport.mjs';

const WAIT = 10_000;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function streamServer(options: StreamServerOptions): Promise<CountingServer> {
  const server = await startStreamServer(options);
  cleanups.push(() => server.close());
  return server;
}

async function countingServer(handle: Parameters<typeof startCountingServer>[0]['handle']): Promise<CountingServer> {
  const server = await startCountingServer({ handle });
  cleanups.push(() => server.close());
  return server;
}

/** An Agent with the transport, and the drains it reports. */
function transport(options: DrainOnAbortOptions = {}) {
  const reports: DrainReport[] = [];
  let waiters: (() => void)[] = [];
  const dispatcher = new Agent().compose(
    drainOnAbort({
      ...options,
      onDrain(report) {
        reports.push(report);
        const ready = waiters;
        waiters = [];
        for (const waiter of ready) waiter();
      },
    }),
  );
  cleanups.push(() => dispatcher.destroy());
  /**
   * Resolves once `count` drains are over and their connections are back in the pool: onDrain runs inside undici's
   * parser, and undici hands a connection back to its pool in a setImmediate queued after that; two hops are past it.
   */
  const drained = (count: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${count} drains not over within ${WAIT} ms (${reports.length} were)`)), WAIT);
      const check = (): void => {
        if (reports.length >= count) {
          clearTimeout(timer);
          setImmediate(() => setImmediate(resolve));
        } else waiters.push(check);
      };
      check();
    });
  return { dispatcher, reports, drained };
}

/** The same Agent without the transport. */
function plainAgent(): Dispatcher {
  const dispatcher = new Agent();
  cleanups.push(() => dispatcher.destroy());
  return dispatcher;
}

/** Reads a fetch body until the terminal event; returns the reader, still open. */
async function readToDone(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('[DONE]') && !text.includes('"id":')) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the body ended before its terminal event: ${JSON.stringify(text)}`);
    text += decoder.decode(value, { stream: true });
  }
  return reader;
}

/** One SSE call the way an early-closing SDK makes it: read to [DONE], then cancel the body. */
async function callAndCancel(url: string, dispatcher: Dispatcher): Promise<void> {
  const reader = await readToDone(await fetch(url, { dispatcher } as RequestInit));
  await reader.cancel();
}

/** The connections that carried requests (the server also counts one undici opens after an aborted socket closes). */
const socketsUsed = (server: CountingServer): number => new Set(server.log().map((record) => record.socket)).size;

describe("Node's fetch, a body cancelled at [DONE]", () => {
  it('a body that ends: 5 calls on 1 connection with the transport, 5 connections without', async () => {
    // The tail outlasts the time a loaded machine may take from [DONE] to the cancel (a body already ended has no drain).
    const server = await streamServer({ mode: 'end', tailDelayMs: 400 });
    const { dispatcher, reports, drained } = transport();
    for (let call = 1; call <= 5; call++) {
      await callAndCancel(server.url, dispatcher);
      await drained(call);
    }
    expect(server.stats()).toEqual({ connections: 1, requests: 5, closedEarly: 0, finished: 5 });
    expect(reports.map((report) => [report.outcome, report.bytes])).toEqual(Array(5).fill(['eof', 17]));

    // Without the transport each cancel closes the body early; a longer tail keeps that so on a loaded machine, where
    // the cancel can reach the server after a 100 ms tail has ended the body.
    const slowTail = await streamServer({ mode: 'end', tailDelayMs: 2000 });
    const plain = plainAgent();
    for (let call = 1; call <= 5; call++) {
      await callAndCancel(slowTail.url, plain);
      await slowTail.waitFor((s) => s.closedEarly >= call, WAIT);
    }
    expect({ ...slowTail.stats(), connections: socketsUsed(slowTail) }).toEqual({ connections: 5, requests: 5, closedEarly: 5, finished: 0 });
  });

  it('a held body: the cancel returns while the body is open; at timeoutMs the socket is destroyed', async () => {
    const server = await streamServer({ mode: 'silent' });
    const { dispatcher, reports, drained } = transport({ timeoutMs: 200 });
    await callAndCancel(server.url, dispatcher);
    const [record] = server.log();
    expect([record.finished, record.closedEarly, record.endedAt]).toEqual([false, false, undefined]);
    await drained(1);
    await server.waitFor((s) => s.closedEarly === 1, WAIT);
    expect(reports.map((report) => [report.outcome, report.bytes])).toEqual([['timeout', 0]]);
    await callAndCancel(server.url, dispatcher);
    expect(socketsUsed(server)).toBe(2);
  });

  it('a trickling body: read until timeoutMs, then the socket is destroyed', async () => {
    const server = await streamServer({ mode: 'trickle', trickleIntervalMs: 20 });
    const { dispatcher, reports, drained } = transport({ timeoutMs: 200 });
    await callAndCancel(server.url, dispatcher);
    await drained(1);
    await server.waitFor((s) => s.closedEarly === 1, WAIT);
    expect(reports[0].outcome).toBe('timeout');
    expect(reports[0].bytes).toBeGreaterThan(0);
    expect(reports[0].bytes % ': keep-alive\n\n'.length).toBe(0);
  });

  it('a flooding body: cut at maxBytes, the server wrote a fraction of its 64 MiB', async () => {
    let written = 0;
    const server = await countingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: [DONE]\n\n');
      const chunk = Buffer.from(`: ${'x'.repeat(1021)}\n`.repeat(64));
      const pump = (): void => {
        while (!res.destroyed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      setTimeout(pump, 10);
    });
    const { dispatcher, reports, drained } = transport({ maxBytes: 128 * 1024, timeoutMs: 60_000 });
    await callAndCancel(server.url, dispatcher);
    await drained(1);
    await server.waitFor((s) => s.closedEarly === 1, WAIT);
    expect(reports[0].outcome).toBe('max-bytes');
    expect(reports[0].bytes).toBeGreaterThan(128 * 1024);
    expect(server.stats()).toMatchObject({ requests: 1, closedEarly: 1, finished: 0 });
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('a body reset after [DONE]: the drain ends with the reset, the caller only saw its own cancel, the next call works', async () => {
    const server = await streamServer({ mode: 'reset', tailDelayMs: 20 });
    const { dispatcher, reports, drained } = transport({ timeoutMs: 60_000 });
    await callAndCancel(server.url, dispatcher);
    await drained(1);
    expect(reports[0].outcome).toBe('error');
    expect(reports[0].error).toBeInstanceOf(Error);
    await callAndCancel(server.url, dispatcher);
    expect(server.stats().requests).toBe(2);
    expect(socketsUsed(server)).toBe(2);
  });

  it('a body the consumer had stopped reading (paused by backpressure) is resumed and drained to its end', async () => {
    const server = await countingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: [DONE]\n\n');
      setTimeout(() => res.end(`: ${'x'.repeat(1021)}\n`.repeat(96)), 20);
    });
    const { dispatcher, reports, drained } = transport({ maxBytes: 1024 * 1024, timeoutMs: 60_000 });
    const reader = await readToDone(await fetch(server.url, { dispatcher } as RequestInit));
    // The server wrote its 96 KiB and ended; the client, not reading, holds what its buffers take.
    await server.waitFor((s) => s.finished === 1, WAIT);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await reader.cancel();
    await drained(1);
    expect(reports[0].outcome).toBe('eof');
    await callAndCancel(server.url, dispatcher).catch(() => {});
    expect(server.stats().connections).toBe(1);
  });
});

describe('the abort keeps its reason and is seen at once', () => {
  it.each(['with', 'without'])("the request's AbortSignal mid-stream (%s the transport): the pending read rejects with the reason", async (variant) => {
    const server = await streamServer({ mode: 'end', events: 10, eventDelayMs: 10, tailDelayMs: 0 });
    const { dispatcher, drained } = transport();
    const controller = new AbortController();
    const response = await fetch(server.url, { dispatcher: variant === 'with' ? dispatcher : plainAgent(), signal: controller.signal } as RequestInit);
    const reader = response.body!.getReader();
    await reader.read();
    const pending = reader.read();
    const reason = new Error('the user pressed stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    if (variant === 'with') {
      // The rest (nine events, [DONE], the end) was read in the background: the connection is reused.
      await drained(1);
      await callAndCancel(server.url, dispatcher);
      expect(server.stats()).toMatchObject({ connections: 1, requests: 2, closedEarly: 0 });
    } else {
      await server.waitFor((s) => s.closedEarly === 1, WAIT);
    }
  });

  it.each(['with', 'without'])('an abort before the response started passes through (%s the transport): the fetch rejects with the reason, the socket is closed', async (variant) => {
    const server = await countingServer(() => {
      // never answers
    });
    const { dispatcher, reports } = transport();
    const controller = new AbortController();
    const pending = fetch(server.url, { dispatcher: variant === 'with' ? dispatcher : plainAgent(), signal: controller.signal } as RequestInit);
    await server.waitFor((s) => s.requests === 1, WAIT);
    const reason = new Error('took too long');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await server.waitFor((s) => s.closedEarly === 1, WAIT);
    expect(reports).toEqual([]);
  });

  it("undici's request(): a `break` out of `for await` over the body is drained too", async () => {
    const server = await streamServer({ mode: 'end', tailDelayMs: 50 });
    const { dispatcher, reports, drained } = transport();
    for (let call = 1; call <= 3; call++) {
      const { body } = await request(server.url, { dispatcher });
      for await (const chunk of body) if (String(chunk).includes('[DONE]')) break;
      await drained(call);
    }
    expect(reports.map((report) => report.outcome)).toEqual(['eof', 'eof', 'eof']);
    expect(server.stats()).toEqual({ connections: 1, requests: 3, closedEarly: 0, finished: 3 });
  });
});

describe('many calls in flight', () => {
  it('two waves of 20 concurrent calls: at most 20 connections with the transport, 40 without', async () => {
    const server = await streamServer({ mode: 'end', tailDelayMs: 1000 });
    const { dispatcher, reports, drained } = transport({ timeoutMs: 5000 });
    const wave = (agent: Dispatcher, url = server.url) => Promise.all(Array.from({ length: 20 }, () => callAndCancel(url, agent)));
    await wave(dispatcher);
    await drained(20);
    await wave(dispatcher);
    await drained(40);
    expect(server.stats().connections).toBeLessThanOrEqual(20);
    expect(server.stats()).toMatchObject({ requests: 40, closedEarly: 0, finished: 40 });
    expect(new Set(reports.map((report) => report.outcome))).toEqual(new Set(['eof']));

    const slowTail = await streamServer({ mode: 'end', tailDelayMs: 3000 });
    const plain = plainAgent();
    await wave(plain, slowTail.url);
    await slowTail.waitFor((s) => s.closedEarly === 20, WAIT);
    await wave(plain, slowTail.url);
    await slowTail.waitFor((s) => s.closedEarly === 40, WAIT);
    expect(socketsUsed(slowTail)).toBe(40);
  });
});

describe('bodies that cannot leave a reusable connection are left to the abort', () => {
  it.each([
    ['a Content-Length over maxBytes', { 'content-length': String(1024 * 1024) }],
    ['Connection: close', { 'transfer-encoding': 'chunked', connection: 'close' }],
  ])('%s: the socket is closed at the cancel, nothing is drained', async (_name, headers) => {
    const server = await countingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
      res.write('data: [DONE]\n\n');
    });
    const { dispatcher, reports } = transport({ timeoutMs: 60_000 });
    await callAndCancel(server.url, dispatcher);
    await server.waitFor((s) => s.closedEarly === 1, WAIT);
    expect(reports).toEqual([]);
  });

  it('a Content-Length within maxBytes is drained and the connection reused', async () => {
    const rest = ': padding\n\n'.repeat(100);
    const server = await countingServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': String(14 + rest.length) });
      res.write('data: [DONE]\n\n');
      setTimeout(() => res.end(rest), 50);
    });
    const { dispatcher, reports, drained } = transport();
    await callAndCancel(server.url, dispatcher);
    await drained(1);
    await callAndCancel(server.url, dispatcher);
    await drained(2);
    expect(reports.map((report) => [report.outcome, report.bytes])).toEqual([
      ['eof', rest.length],
      ['eof', rest.length],
    ]);
    expect(server.stats()).toEqual({ connections: 1, requests: 2, closedEarly: 0, finished: 2 });
  });
});

describe('HTTP/2 and upgrades pass through', () => {
  const made = makeSelfSignedCert();
  const tls = 'error' in made ? undefined : made;
  it.skipIf(!tls)(`HTTP/2: a cancel resets only its stream, at once, and the session carries the next call${tls ? '' : ' (skipped: no openssl for a certificate)'}`, async () => {
    let sessions = 0;
    const streams: http2.ServerHttp2Stream[] = [];
    const server = http2.createSecureServer({ key: tls!.key, cert: tls!.cert });
    server.on('session', () => sessions++);
    let aborted = 0;
    server.on('stream', (stream) => {
      streams.push(stream);
      stream.on('aborted', () => aborted++);
      // A Content-Length within maxBytes: only telling HTTP/2 apart keeps the drain off.
      stream.respond({ ':status': 200, 'content-type': 'text/event-stream', 'content-length': '100' });
      stream.write('data: [DONE]\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const reports: DrainReport[] = [];
    const dispatcher = new Agent({ allowH2: true, connect: { ca: tls!.cert } }).compose(drainOnAbort({ timeoutMs: 60_000, onDrain: (report) => reports.push(report) }));
    cleanups.push(() => dispatcher.destroy());
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    await callAndCancel(url, dispatcher);
    // The server never ends a stream: it closes when undici resets it (RST_STREAM), not 60 s later after a drain.
    await expect.poll(() => streams[0].closed, { timeout: WAIT }).toBe(true);
    expect(aborted).toBe(1);
    await callAndCancel(url, dispatcher);
    expect({ sessions, streams: streams.length, reports }).toEqual({ sessions: 1, streams: 2, reports: [] });
    for (const stream of streams) stream.close();
  });

  it('an upgrade goes through the composed Agent as before', async () => {
    const server = http.createServer();
    server.on('upgrade', (_req, socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n');
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const { dispatcher, reports } = transport();
    const { socket } = await upgrade(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { dispatcher, protocol: 'echo' });
    const echoed = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(String(chunk))));
    socket.write('ping');
    expect(await echoed).toBe('ping');
    socket.destroy();
    expect(reports).toEqual([]);
  });
});

describe('installDrainOnAbort', () => {
  it("becomes the global dispatcher Node's fetch uses", async () => {
    const key = Symbol.for('undici.globalDispatcher.1');
    const global = globalThis as unknown as Record<symbol, unknown>;
    const before = global[key];
    const server = await streamServer({ mode: 'end', tailDelayMs: 300 });
    const reports: DrainReport[] = [];
    const installed = installDrainOnAbort({ onDrain: (report) => reports.push(report) });
    try {
      expect(global[key]).toBe(installed);
      for (let call = 1; call <= 3; call++) {
        const reader = await readToDone(await fetch(server.url));
        await reader.cancel();
        await expect.poll(() => reports.length, { timeout: WAIT }).toBe(call);
      }
      expect(server.stats()).toEqual({ connections: 1, requests: 3, closedEarly: 0, finished: 3 });
    } finally {
      global[key] = before;
      global[Symbol.for('undici.globalDispatcher.2')] = before;
      await installed.close();
    }
  });
});
