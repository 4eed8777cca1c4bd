/**
 * A multipart/mixed body (GraphQL incremental delivery) read until its closing boundary: the original cancels the
 * reader in its `finally` before the body ended, the rewrite drains it there (bounded). Counted against a real server
 * that writes the parts, the closing boundary (the terminal event), and then ends the body 20 ms later, holds it open,
 * or floods an epilogue.
 */
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyCodemod } from '../../support/codemod.mjs';
import { startCountingServer, type ResponseControl } from '../../support/counting-server.mjs';
import { runSequentialCalls } from '../../support/keepalive.mjs';
import { createDispatcher } from '../../support/undici-agent.mjs';

const CLIENT = fileURLToPath(new URL('./clients/multipart-parts.mjs', import.meta.url));
const CALLS = 20;
const PAUSE_MS = 40;
const BUDGET_MS = 200;
const FAR_BUDGET_MS = 600_000;
const PARTS = [{ data: { hello: 'world' }, hasNext: true }, { incremental: [{ data: { more: 1 }, path: [] }], hasNext: false }];

type Mode = 'ends' | 'hang' | 'flood';

/** Writes the parts one by one, then the closing boundary; what follows depends on the mode. */
function multipart(mode: Mode) {
  return (_req: unknown, res: ServerResponse, control: ResponseControl): void => {
    res.writeHead(200, { 'content-type': 'multipart/mixed; boundary="-"; deferSpec=20220824' });
    let index = 0;
    let timer: NodeJS.Timeout | undefined;
    res.on('close', () => clearTimeout(timer));
    const next = (): void => {
      if (index < PARTS.length) {
        res.write(`\r\n---\r\ncontent-type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(PARTS[index++])}`);
        timer = setTimeout(next, 2);
        return;
      }
      res.write('\r\n-----');
      control.markTerminal();
      if (mode === 'ends') timer = setTimeout(() => res.end('\r\n'), 20);
      if (mode === 'flood') {
        const flood = (): void => {
          if (res.destroyed) return;
          while (res.write(`\r\n${'x'.repeat(16 * 1024)}`)) {
            // keep writing while the socket takes it
          }
          res.once('drain', flood);
        };
        flood();
      }
    };
    next();
  };
}

async function measure(client: string, mode: Mode, calls: number, callTimeoutMs = 10_000) {
  const server = await startCountingServer({ handle: multipart(mode) });
  const dispatcher = await createDispatcher();
  try {
    const run = await runSequentialCalls(client, server.url, calls, { args: [dispatcher ? { dispatcher } : {}], pauseMs: PAUSE_MS, callTimeoutMs });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.waitFor((stats) => stats.finished + stats.closedEarly >= stats.requests, 3000).catch(() => {});
    return { results: run.results, connections: server.connections(), closedByClient: server.closedByClient(), requests: server.requests() };
  } finally {
    await dispatcher?.close().catch(() => {});
    await server.close();
  }
}

describe('multipart/mixed read until the closing boundary, reader cancelled in finally', () => {
  it(`the original opens about one connection per call, the rewrite at most two over ${CALLS} calls, same parts`, async () => {
    const fixed = await applyCodemod(CLIENT);
    expect(fixed.reason).toBeUndefined();
    expect(fixed.changed).toBe(true);
    const before = await measure(CLIENT, 'ends', CALLS);
    const after = await measure(fixed.outPath!, 'ends', CALLS);
    expect(before.connections).toBeGreaterThanOrEqual(CALLS - 2);
    expect(after.connections).toBeLessThanOrEqual(2);
    expect(after.closedByClient).toBe(0);
    expect(after.results).toEqual(before.results);
    expect(after.results).toEqual(Array.from({ length: CALLS }, () => PARTS));
  });

  it('against a server that holds the body open after the closing boundary, the rewrite gives up after its budget and closes', async () => {
    const fixed = await applyCodemod(CLIENT, { transformOptions: { drainTimeoutMs: BUDGET_MS } });
    expect(fixed.changed).toBe(true);
    const held = await measure(fixed.outPath!, 'hang', 2, BUDGET_MS + 4000);
    expect(held.results).toEqual([PARTS, PARTS]);
    expect(held.closedByClient).toBe(2);
  });

  it('against a server that floods an epilogue after the closing boundary, the drain stops at its byte limit and closes', async () => {
    const fixed = await applyCodemod(CLIENT, { transformOptions: { drainTimeoutMs: FAR_BUDGET_MS, drainMaxBytes: 64 * 1024 } });
    expect(fixed.changed).toBe(true);
    const flood = await measure(fixed.outPath!, 'flood', 2, 30_000);
    expect(flood.results).toEqual([PARTS, PARTS]);
    expect(flood.closedByClient).toBe(2);
  });
});
