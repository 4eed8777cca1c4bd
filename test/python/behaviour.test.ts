// Real Python clients (Debian's python3-httpx 0.23) against the project's Node counting server:
// the original early close and drainguard's rewrite of it, connections counted by the server.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { rewritePython } from '../../codemods/python/rewrite.js';
import { startCountingServer } from '../support/counting-server.mjs';
import { pythonHttpxMissing, runPythonClient } from '../support/python-keepalive.mjs';
import { expectedMessages, startSseServer } from '../support/sse-server.mjs';

const missing = pythonHttpxMissing();
if (missing) console.log(`skipping the Python behaviour tests: ${missing}`);

const CLIENTS = [
  { name: 'anyio: aclose() and return inside async with, reconnect on errors', file: 'anyio_aclose_reconnect.py' },
  { name: 'asyncio: break out of async with client.stream()', file: 'asyncio_break.py' },
  { name: 'sync: a generator breaks on [DONE], its finally closes the response', file: 'sync_generator_finally.py' },
];
const CALLS = 20;
const BUDGET_MS = 200;
const work = mkdtempSync(path.join(tmpdir(), 'drainguard-python-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const clientPath = (file: string): string => fileURLToPath(new URL(`../support/python-clients/${file}`, import.meta.url));

/** The client rewritten by drainguard fix (with the given budget), written next to nothing else. */
async function rewritten(file: string, drainTimeoutMs?: number): Promise<string> {
  const result = await rewritePython(readFileSync(clientPath(file), 'utf8'), drainTimeoutMs === undefined ? {} : { drainTimeoutMs });
  expect(result.sites.map((site) => site.status)).toEqual(['fixed']);
  const out = path.join(work, `${path.basename(file, '.py')}_${drainTimeoutMs ?? 'default'}.py`);
  writeFileSync(out, result.output!);
  return out;
}

(missing ? describe.skip : describe).each(CLIENTS)('$name', ({ file }) => {
  it(`the original opens about one connection per call, the rewrite at most two over ${CALLS} calls, same results`, async () => {
    const runOn = async (client: string) => {
      const server = await startSseServer({ events: 3 });
      try {
        const run = await runPythonClient(client, server.url, CALLS);
        return { ...run, connections: server.connections(), requests: server.requests() };
      } finally {
        await server.close();
      }
    };
    const before = await runOn(clientPath(file));
    const after = await runOn(await rewritten(file));
    expect(before.connections).toBeGreaterThanOrEqual(CALLS - 2);
    expect(after.connections).toBeLessThanOrEqual(2);
    expect(after.requests).toBe(CALLS);
    expect(after.results).toEqual(before.results);
    expect(after.results).toEqual(Array.from({ length: CALLS }, () => expectedMessages(3, 'sse')));
  });

  it('against a server that never ends the body, the rewrite closes it within its budget (+ margin) and returns the same result', async () => {
    const server = await startSseServer({ events: 2, mode: 'hang' });
    try {
      const run = await runPythonClient(await rewritten(file, BUDGET_MS), server.url, 2, 30_000);
      expect(run.results).toEqual([expectedMessages(2, 'sse'), expectedMessages(2, 'sse')]);
      // A hang check, not a latency measurement: each call ends within the budget plus a generous margin.
      for (const ms of run.ms) expect(ms).toBeLessThan(BUDGET_MS + 4000);
      await server.waitFor(() => server.closedByClient() === 2);
      expect(server.requests()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('a server that resets the connection after the reply causes no reconnect and no duplicate', async () => {
    const events = expectedMessages(3, 'sse');
    const server = await startCountingServer({
      name: 'reset-after-reply',
      handle(_req, res) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of events) res.write(`data: ${JSON.stringify(event)}\n\n`);
        res.write('data: [DONE]\n\n');
        setTimeout(() => res.socket?.resetAndDestroy(), 20);
      },
    });
    try {
      const run = await runPythonClient(await rewritten(file), server.url, 5);
      expect(run.results).toEqual(Array.from({ length: 5 }, () => events));
      expect(server.requests()).toBe(5);
    } finally {
      await server.close();
    }
  });
});
