#!/usr/bin/env node
// What the drain's bounds cost and save, measured against a real local server (numbers go to bench/RESULTS.md):
//  - flood: after the terminal event the server writes events as fast as the client reads them and never ends; it
//    counts the bytes it wrote after the terminal event until the client closed the body, per call;
//  - exit: the server holds the body open after the terminal event; a child process makes one call and exits, and
//    the time from its start to its exit is measured (the drain's pending read keeps the process alive).
// Each for the original early-close client and its rewrite (the jscodeshift transform, dist/codemod.cjs) with
// `--drain-max-bytes 0` (bounded by time only, as before) and with the defaults.
//
//   node bench/drain-bounds.mjs [--calls N] [--budget-ms N]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applyCodemod, ensureCodemodBuilt } from '../test/support/codemod.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '5' }, 'budget-ms': { type: 'string', default: '1000' } } });
const calls = Number(values.calls);
const budgetMs = Number(values['budget-ms']);
const CLIENT = fileURLToPath(new URL('./clients/early-close.mjs', import.meta.url));
const FRAME = 'data: {"index":0,"text":"after the end"}\n\n';

/** A server whose responses end in `mode` after three events and [DONE]; it reports per response the bytes written after [DONE]. */
function startServer(mode) {
  const tails = [];
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < 3; i++) res.write(`data: {"index":${i},"text":"event ${i}"}\n\n`);
    res.write('data: [DONE]\n\n');
    const record = { bytes: 0, closedAfterMs: null };
    const terminalAt = performance.now();
    tails.push(record);
    res.on('close', () => (record.closedAfterMs = performance.now() - terminalAt));
    if (mode !== 'flood') return;
    const burst = FRAME.repeat(Math.ceil(16384 / FRAME.length));
    const pump = () => {
      while (!res.destroyed) {
        record.bytes += burst.length;
        if (!res.write(burst)) break;
      }
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, tails, url: `http://127.0.0.1:${server.address().port}/` })));
}

async function flood(clientPath) {
  const { server, tails, url } = await startServer('flood');
  const { callOnce } = await import(`${clientPath}?flood`);
  for (let i = 0; i < calls; i++) await callOnce(url);
  // The drains run in the background: wait until the server sees each body closed (or a minute).
  const deadline = performance.now() + 60_000;
  while (tails.some((tail) => tail.closedAfterMs === null) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  server.closeAllConnections();
  server.close();
  const mib = tails.map((tail) => tail.bytes / 2 ** 20);
  return { medianMiB: median(mib), maxMiB: Math.max(...mib), medianCloseMs: median(tails.map((tail) => tail.closedAfterMs ?? Infinity)) };
}

async function exitDelay(clientPath) {
  const { server, url } = await startServer('hold');
  const times = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', `const { callOnce } = await import(${JSON.stringify(clientPath)}); await callOnce(${JSON.stringify(url)});`], { stdio: 'inherit' });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`client exited ${code}`))));
    });
    times.push(performance.now() - started);
  }
  server.closeAllConnections();
  server.close();
  return { medianExitMs: median(times) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

ensureCodemodBuilt();
const variants = [
  ['early-close (original)', CLIENT],
  [`rewrite, ${budgetMs} ms, no byte limit`, (await applyCodemod(CLIENT, { transformOptions: { drainTimeoutMs: budgetMs, drainMaxBytes: 0 } })).outPath],
  [`rewrite, ${budgetMs} ms, 128 KiB`, (await applyCodemod(CLIENT, { transformOptions: { drainTimeoutMs: budgetMs, drainMaxBytes: 131072 } })).outPath],
];
console.log(`${calls} calls per variant; flood: bytes the server wrote after [DONE] until the client closed the body; exit: one call in a child process, start to exit, the server holding the body open`);
for (const [name, path] of variants) {
  const f = await flood(path);
  const e = await exitDelay(path);
  console.log(
    `${name.padEnd(34)} flood ${f.medianMiB.toFixed(2).padStart(7)} MiB (max ${f.maxMiB.toFixed(2)}), closed after ${f.medianCloseMs.toFixed(0).padStart(5)} ms | exit ${e.medianExitMs.toFixed(0).padStart(5)} ms`,
  );
}
process.exit(0);
