// The delay proxy in front of the counting server (RTT 1 ms, plain and TLS): it forwards every byte
// in order, opens one upstream connection per client connection, and leaves the clients' connection
// behaviour as it is. No latency is asserted.
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startDelayProxy, makeSelfSignedCert, type DelayProxy } from '../support/delay-proxy.mjs';
import { expectedMessages, startSseServer, type SseServer } from '../support/sse-server.mjs';
import { measureKeepAlive, runSequentialCalls } from '../support/keepalive.mjs';
import { createDispatcher } from '../support/undici-agent.mjs';

const client = (name: string) => fileURLToPath(new URL(`../../bench/clients/${name}.mjs`, import.meta.url));
const cert = makeSelfSignedCert();
const noTls = 'error' in cert ? cert.error : undefined;
if (noTls) console.warn(`TLS proxy tests skipped: ${noTls}`);

describe('delay proxy', () => {
  let server: SseServer | undefined;
  let proxy: DelayProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await server?.close();
    proxy = undefined;
    server = undefined;
  });

  it('forwards many small chunks in order, one upstream connection per client connection', async () => {
    server = await startSseServer({ events: 200, eventDelayMs: 0, tailDelayMs: 20 });
    proxy = await startDelayProxy({ target: server.url, rttMs: 2 });
    const run = await runSequentialCalls(client('hand-drained'), proxy.url, 5);
    expect(run.results).toEqual(Array.from({ length: 5 }, () => expectedMessages(200)));
    expect(proxy.connections()).toBe(server.connections());
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('passes a client close through to the server', async () => {
    server = await startSseServer({ mode: 'hang' });
    proxy = await startDelayProxy({ target: server.url, rttMs: 2 });
    const s = server;
    const run = await runSequentialCalls(client('hand-drained'), proxy.url, 1, { args: [{}, 100] });
    expect(run.results).toEqual([expectedMessages(3)]);
    await s.waitFor(() => s.closedByClient() >= 1, 5000);
    expect(s.closedByClient()).toBe(1);
  }, 20_000);

  it('through the proxy (RTT 1): early-close about one connection per call, hand-drained at most 2', async () => {
    const early = await measureKeepAlive(client('early-close'), { calls: 20, rttMs: 1, server: { tailDelayMs: 50 } });
    const drained = await measureKeepAlive(client('hand-drained'), { calls: 20, rttMs: 1, server: { tailDelayMs: 50 } });
    expect(early.url.startsWith('http://127.0.0.1:')).toBe(true);
    expect(early.connections).toBeGreaterThanOrEqual(15);
    expect(drained.connections).toBeLessThanOrEqual(2);
    expect(drained.results).toEqual(early.results);
  });

  it.skipIf(noTls !== undefined)('with TLS (self-signed, trusted through a dispatcher): same reuse picture', async () => {
    const early = await measureKeepAlive(client('early-close'), { calls: 20, rttMs: 1, tls: true, server: { tailDelayMs: 50 } });
    const drained = await measureKeepAlive(client('hand-drained'), { calls: 20, rttMs: 1, tls: true, server: { tailDelayMs: 50 } });
    expect(early.tls).toBe(true);
    expect(early.url.startsWith('https://127.0.0.1:')).toBe(true);
    expect(early.connections).toBeGreaterThanOrEqual(15);
    expect(drained.connections).toBeLessThanOrEqual(2);
    expect(drained.results).toEqual(early.results);
  });

  it.skipIf(noTls !== undefined)('with TLS, a fetch that does not trust the certificate fails (the TLS is real)', async () => {
    server = await startSseServer({});
    proxy = await startDelayProxy({ target: server.url, rttMs: 1, tls: true });
    const dispatcher = await createDispatcher();
    await expect(fetch(proxy.url, { dispatcher } as RequestInit)).rejects.toThrow();
    await dispatcher?.close();
  });
});
