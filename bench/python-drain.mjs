#!/usr/bin/env node
// node bench/python-drain.mjs [--calls N] [--python PATH] [--shapes a.py,b.py] [--modes end,hold,...] [--json]
//
// What the Python rewrite costs and saves against each peer behaviour: the early-close clients of
// test/support/python-clients and drainguard's rewrite of each (made here with the built CLI's `drainguard fix`,
// default options), N calls back to back over one httpx client (a pool of one connection), against a fresh
// counting server per mode: a body that ends 5 ms after [DONE] (end), ends 300 ms after it (hold), never ends
// (silent), trickles a comment every 100 ms (trickle), floods SSE comments (comments), one endless line (line),
// events (flood), or is reset 20 ms after it (reset). Per client and mode: the connections the server saw, each
// call's duration (p50, p95, max), the bytes a call read from the network at most, the process's peak memory.
// "added" is the rewrite's p50 minus the original's. Listens on 127.0.0.1 only; every run is bounded.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startHostileServer } from '../test/support/python-hostile-server.mjs';
import { percentile } from '../test/support/keepalive.mjs';
import { PYTHON, pythonHttpxMissing, runPythonPlan } from '../test/support/python-keepalive.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'dist', 'cli.js');
const CLIENTS = join(HERE, '..', 'test', 'support', 'python-clients');
const BACKENDS = { 'async_generator_finally.py': 'anyio-asyncio', 'asyncio_break.py': 'asyncio', 'sse_reader_direct.py': 'anyio-asyncio', 'trio_aclose.py': 'trio' };

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20' },
    python: { type: 'string', default: PYTHON },
    shapes: { type: 'string', default: 'sync_generator_finally.py,async_generator_finally.py,asyncio_break.py,trio_aclose.py,sse_reader_direct.py,nested_generator.py' },
    modes: { type: 'string', default: 'end,hold,silent,trickle,comments,line,flood,reset' },
    json: { type: 'boolean', default: false },
  },
});
const calls = Number(values.calls);
const missing = values.python === PYTHON ? pythonHttpxMissing() : null;
if (missing) {
  process.stderr.write(`bench/python-drain: ${missing}\n`);
  process.exit(2);
}

const round = (/** @type {number} */ x) => Math.round(x * 10) / 10;
const work = mkdtempSync(join(tmpdir(), 'drainguard-bench-python-drain-'));
const rows = [];
try {
  for (const shape of values.shapes.split(',')) {
    const fixed = join(work, shape);
    copyFileSync(join(CLIENTS, shape), fixed);
    execFileSync(process.execPath, [CLI, 'fix', '--force', fixed], { stdio: ['ignore', 'ignore', 'inherit'] });
    for (const mode of values.modes.split(',')) {
      const byVariant = {};
      for (const [variant, client] of [['original', join(CLIENTS, shape)], ['rewritten', fixed]]) {
        const server = await startHostileServer({ mode });
        try {
          const { runs, maxrss_kb: peakKb } = await runPythonPlan({ clientPath: client, plan: [{ url: server.url, calls }], backend: BACKENDS[shape] ?? 'sync', python: values.python, timeoutMs: calls * 30_000, pool: 1 });
          const [run] = runs;
          byVariant[variant] = { connections: server.connections(), p50Ms: round(percentile(run.ms, 50)), p95Ms: round(percentile(run.ms, 95)), maxMs: round(Math.max(...run.ms)), maxBytes: Math.max(...run.bytes), peakMb: Math.round(peakKb / 1024) };
        } finally {
          await server.close();
        }
      }
      const row = { shape: basename(shape, '.py'), mode, ...Object.fromEntries(Object.entries(byVariant).map(([variant, value]) => [variant, value])), addedP50Ms: round(byVariant.rewritten.p50Ms - byVariant.original.p50Ms) };
      rows.push(row);
      process.stderr.write(`${row.shape} ${mode}: ${JSON.stringify(byVariant)}\n`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (values.json) process.stdout.write(`${JSON.stringify({ calls, python: values.python, rows }, null, 2)}\n`);
else {
  process.stdout.write(`${calls} calls back to back per client and mode, one connection in the pool\n\n`);
  process.stdout.write('| client | peer | connections (original / rewrite) | p50 ms (original / rewrite, added) | p95 ms rewrite | max bytes read per call (original / rewrite) | peak memory MB (rewrite) |\n| --- | --- | --- | --- | --- | --- | --- |\n');
  for (const row of rows) {
    process.stdout.write(
      `| ${row.shape} | ${row.mode} | ${row.original.connections} / ${row.rewritten.connections} | ${row.original.p50Ms} / ${row.rewritten.p50Ms} (${row.addedP50Ms >= 0 ? '+' : ''}${row.addedP50Ms}) | ${row.rewritten.p95Ms} | ${row.original.maxBytes} / ${row.rewritten.maxBytes} | ${row.rewritten.peakMb} |\n`,
    );
  }
}
