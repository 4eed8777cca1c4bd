// `npm run bench:keepalive -- --client python`: the same proof with httpx (Debian's python3-httpx).
// Three Python clients — an early close, drainguard's rewrite of it (made here with the built CLI's
// `drainguard fix`, not by hand) and a hand-drained one — each make N sequential calls over one
// httpx client against a fresh Node SSE server behind the delay proxy. The server counts
// connections; Python times each call. httpx opens the replacement connection in the foreground,
// so the new handshake shows in p50/p95, not only in the connection count.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startDelayProxy } from '../test/support/delay-proxy.mjs';
import { percentile } from '../test/support/keepalive.mjs';
import { pythonHttpxMissing, runPythonClient } from '../test/support/python-keepalive.mjs';
import { startSseServer } from '../test/support/sse-server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'dist', 'cli.js');
const EARLY_CLOSE = join(HERE, 'clients', 'python-early-close.py');
const HAND_DRAINED = join(HERE, 'clients', 'python-hand-drained.py');

const round = (/** @type {number} */ x) => Math.round(x * 10) / 10;

/**
 * @param {{ calls: number, rttMs: number, tailMs: number, drainTimeoutMs: number, note: (line: string) => void }} options
 * @returns {Promise<{ rows: Array<{ name: string, connections: number | null, p50Ms: number | null, p95Ms: number | null }>, remarks: string[], failed: boolean }>}
 */
export async function benchPython({ calls, rttMs, tailMs, drainTimeoutMs, note }) {
  const missing = pythonHttpxMissing();
  if (missing) throw new Error(missing);
  const work = mkdtempSync(join(tmpdir(), 'drainguard-bench-python-'));
  const rows = [];
  const remarks = [];
  let failed = false;
  try {
    const fixed = join(work, 'python_drainguard_fixed.py');
    copyFileSync(EARLY_CLOSE, fixed);
    execFileSync(process.execPath, [CLI, 'fix', '--force', '--drain-timeout-ms', String(drainTimeoutMs), fixed], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (readFileSync(fixed, 'utf8') === readFileSync(EARLY_CLOSE, 'utf8')) throw new Error('drainguard fix changed nothing in the early-close client');
    /** @type {unknown} */
    let reference;
    for (const [name, client] of [['early-close', EARLY_CLOSE], ['drainguard-fixed', fixed], ['hand-drained', HAND_DRAINED]]) {
      const server = await startSseServer({ tailDelayMs: tailMs });
      const proxy = await startDelayProxy({ target: server.url, rttMs });
      try {
        const run = await runPythonClient(client, proxy.url, calls, calls * 30_000);
        let remark = '';
        if (reference === undefined) reference = run.results;
        else if (isDeepStrictEqual(run.results, reference)) remark = 'same messages as early-close';
        else {
          remark = 'DELIVERED DIFFERENT MESSAGES than early-close';
          note(`${name}: ${remark}`);
          failed = true;
        }
        if (server.requests() !== calls) remark = `${remark ? `${remark}; ` : ''}server saw ${server.requests()} requests`;
        rows.push({ name, connections: server.connections(), p50Ms: round(percentile(run.ms, 50)), p95Ms: round(percentile(run.ms, 95)) });
        remarks.push(remark);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        note(`${name}: failed: ${message}`);
        rows.push({ name, connections: null, p50Ms: null, p95Ms: null });
        remarks.push(`failed: ${message}`);
        failed = true;
      } finally {
        await proxy.close();
        await server.close();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { rows, remarks, failed };
}
