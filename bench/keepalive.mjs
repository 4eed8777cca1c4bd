#!/usr/bin/env node
// npm run bench:keepalive [-- --calls N] [--rtt MS] [--tls] [--json] [--peer node|mcp] [--client node|python]
//
// The proof: three clients — an early-close one, drainguard's rewrite of it (made here by
// running the built codemod on it, not written by hand) and a hand-drained one — each make N
// sequential calls against a fresh local server (Node http SSE server, or the MCP TypeScript SDK's
// streamable HTTP server) behind a TCP proxy that injects a round-trip delay (optionally with TLS).
// The server counts the TCP connections; the bench times each call and prints a table, or with
// --json exactly { calls, rttMs, tls, variants: [{ name, connections, p50Ms, p95Ms }] }.
// Notes and problems go to stderr. Exit codes: 0 ok, 1 a variant failed or delivered different
// messages, 2 usage error. Everything listens on 127.0.0.1 only; every call is bounded.
import { parseArgs, isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { rmSync } from 'node:fs';
import { measureKeepAlive, percentile, loadClient } from '../test/support/keepalive.mjs';
import { applyCodemod, ensureCodemodBuilt } from '../test/support/codemod.mjs';
import { undiciAgentClass } from '../test/support/undici-agent.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLIENTS = {
  node: { earlyClose: join(HERE, 'clients', 'early-close.mjs'), handDrained: join(HERE, 'clients', 'hand-drained.mjs') },
  mcp: { earlyClose: join(HERE, 'clients', 'mcp-early-close.mjs'), handDrained: join(HERE, 'clients', 'mcp-hand-drained.mjs') },
};

const USAGE = `usage: npm run bench:keepalive -- [options]
  --calls N              sequential calls per variant (default 50, 1..10000)
  --rtt MS               round-trip delay injected by the proxy (default 10, 0..1000)
  --tls                  TLS between the client and the proxy (self-signed, needs openssl)
  --json                 print { calls, rttMs, tls, variants: [{ name, connections, p50Ms, p95Ms }] }
  --peer node|mcp        node: the counting SSE server (default); mcp: the MCP TypeScript SDK server
  --client node|python   node: fetch clients (default); python: httpx clients run by /usr/bin/python3 (node peer, no TLS)
  --tail-ms MS           node peer: delay between [DONE] and the end of the response (default 5)
  --pause-ms MS          pause between calls, not timed (default 0); drainguard-fixed hands the
                         result over at [DONE] and drains after it, so a call made before the server
                         ended the previous body opens another connection
  --drain-timeout-ms MS  the codemod's drain budget for the drainguard-fixed variant (default 1000)
  --codemod PATH         the built transform to run (default dist/codemod.cjs, built if missing/stale)
  --help`;

/**
 * @param {string} message
 * @returns {never}
 */
function usageError(message) {
  process.stderr.write(`bench:keepalive: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/**
 * @param {string | undefined} raw
 * @param {string} flag
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 * @param {boolean} integer
 */
function numberFlag(raw, flag, fallback, min, max, integer) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    usageError(`${flag} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

let parsed;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    options: {
      calls: { type: 'string' },
      rtt: { type: 'string' },
      tls: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      peer: { type: 'string', default: 'node' },
      client: { type: 'string', default: 'node' },
      'tail-ms': { type: 'string' },
      'pause-ms': { type: 'string' },
      'drain-timeout-ms': { type: 'string' },
      codemod: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (err) {
  usageError(err instanceof Error ? err.message : String(err));
}
if (parsed.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const calls = numberFlag(parsed.calls, '--calls', 50, 1, 10_000, true);
const rttMs = numberFlag(parsed.rtt, '--rtt', 10, 0, 1000, false);
const tailMs = numberFlag(parsed['tail-ms'], '--tail-ms', 5, 0, 10_000, false);
const pauseMs = numberFlag(parsed['pause-ms'], '--pause-ms', 0, 0, 10_000, false);
const drainTimeoutMs = numberFlag(parsed['drain-timeout-ms'], '--drain-timeout-ms', 1000, 0, 600_000, true);
const peer = /** @type {'node' | 'mcp'} */ (parsed.peer);
if (peer !== 'node' && peer !== 'mcp') usageError(`--peer must be node or mcp, got "${parsed.peer}"`);
const json = Boolean(parsed.json);
const clientKind = parsed.client;
if (clientKind !== 'node' && clientKind !== 'python') usageError(`--client must be node or python, got "${parsed.client}"`);
if (clientKind === 'python' && (peer !== 'node' || parsed.tls)) usageError('--client python runs against the node peer without TLS');

/** @param {string} line */
const note = (line) => process.stderr.write(`${line}\n`);

if (clientKind === 'python') {
  const { benchPython } = await import('./python-keepalive.mjs');
  const { rows, remarks, failed } = await benchPython({ calls, rttMs, tailMs, drainTimeoutMs, note });
  if (json) process.stdout.write(`${JSON.stringify({ calls, rttMs, tls: false, client: 'python', variants: rows })}\n`);
  else process.stdout.write(table(rows, remarks, `httpx ${calls} sequential calls per variant, RTT ${rttMs} ms, TLS off`, `peer: Node http SSE server (end ${tailMs} ms after [DONE]); connections are counted by the server, latency measured in Python`));
  process.exit(failed ? 1 : 0);
}

let tls = Boolean(parsed.tls);
if (tls) {
  const agent = await undiciAgentClass();
  if ('error' in agent) {
    note(`TLS skipped: ${agent.error}, so fetch cannot be told to trust the proxy's self-signed certificate`);
    tls = false;
  }
}

const clients = CLIENTS[peer];

/**
 * @typedef {{ name: string, client?: string, unavailable?: string }} Variant
 * @type {Variant[]}
 */
const variants = [{ name: 'early-close', client: clients.earlyClose }];

// drainguard-fixed: the codemod's rewrite of the early-close client, made now.
/** @type {string | undefined} */
let fixedDir;
{
  /** @type {Variant} */
  const fixed = { name: 'drainguard-fixed' };
  try {
    const codemodPath = parsed.codemod ? resolve(parsed.codemod) : undefined;
    if (!codemodPath) {
      const built = ensureCodemodBuilt();
      if (built) note(built);
    }
    const result = await applyCodemod(clients.earlyClose, { codemodPath, transformOptions: { drainTimeoutMs } });
    for (const report of result.reports) note(`codemod: ${report}`);
    if (result.changed && result.outPath) {
      fixed.client = result.outPath;
      fixedDir = dirname(result.outPath);
    } else {
      fixed.unavailable = `${result.reason ?? 'the transform changed nothing'} — the codemod does not rewrite this client yet`;
    }
  } catch (err) {
    fixed.unavailable = `could not build or run the codemod: ${err instanceof Error ? err.message : String(err)}`;
  }
  variants.push(fixed);
}
variants.push({ name: 'hand-drained', client: clients.handDrained });

/** @type {Array<{ name: string, connections: number | null, p50Ms: number | null, p95Ms: number | null }>} */
const rows = [];
/** @type {string[]} */
const remarks = [];
/** @type {unknown[] | undefined} */
let reference;
let failed = false;
let tlsUsed = tls;
const round = (/** @type {number} */ x) => Math.round(x * 10) / 10;

try {
  // Warm-up (not counted): load fetch/undici and JIT the paths once, so the first variant measured
  // does not pay for it.
  // A separate module instance (query string), so the measured one starts from a clean state (the
  // MCP clients number their requests).
  const warmup = `${pathToFileURL(clients.handDrained).href}?warmup`;
  await measureKeepAlive(warmup, { calls: 5, peer, rttMs: 0, server: { tailDelayMs: 0 }, settleMs: 0 });

  for (const variant of variants) {
    if (!variant.client) {
      note(`${variant.name}: unavailable: ${variant.unavailable}`);
      rows.push({ name: variant.name, connections: null, p50Ms: null, p95Ms: null });
      remarks.push(`unavailable: ${variant.unavailable}`);
      continue;
    }
    try {
      const fn = await loadClient(variant.client);
      const m = await measureKeepAlive(fn, { calls, peer, rttMs, tls, pauseMs, server: { tailDelayMs: tailMs } });
      if (tls && !m.tls) {
        if (tlsUsed) note(`TLS skipped: ${m.tlsSkipReason ?? 'unknown reason'}`);
        tlsUsed = false;
      }
      let remark = '';
      if (reference === undefined) reference = m.results;
      else if (isDeepStrictEqual(m.results, reference)) remark = 'same messages as early-close';
      else {
        remark = 'DELIVERED DIFFERENT MESSAGES than early-close';
        note(`${variant.name}: ${remark}`);
        failed = true;
      }
      rows.push({
        name: variant.name,
        connections: m.connections,
        p50Ms: round(percentile(m.latenciesMs, 50)),
        p95Ms: round(percentile(m.latenciesMs, 95)),
      });
      if (m.requests !== calls) remark = `${remark ? `${remark}; ` : ''}server saw ${m.requests} requests`;
      remarks.push(remark);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      note(`${variant.name}: failed: ${message}`);
      rows.push({ name: variant.name, connections: null, p50Ms: null, p95Ms: null });
      remarks.push(`failed: ${message}`);
      failed = true;
    }
  }
} finally {
  if (fixedDir) rmSync(fixedDir, { recursive: true, force: true });
}

if (json) {
  process.stdout.write(`${JSON.stringify({ calls, rttMs, tls: tlsUsed, variants: rows })}\n`);
} else {
  const peerText = peer === 'mcp' ? 'MCP TypeScript SDK streamable HTTP server (stateless, SSE)' : `Node http SSE server (end ${tailMs} ms after [DONE])`;
  process.stdout.write(table(rows, remarks, `${calls} sequential calls per variant, RTT ${rttMs} ms, TLS ${tlsUsed ? 'on' : 'off'}`, `peer: ${peerText}; connections are counted by the server`));
}
process.exitCode = failed ? 1 : 0;

/**
 * @param {Array<{ name: string, connections: number | null, p50Ms: number | null, p95Ms: number | null }>} rows
 * @param {string[]} remarks
 * @param {string} title
 * @param {string} peerLine
 */
function table(rows, remarks, title, peerLine) {
  const lines = [`drainguard keep-alive bench: ${title}`, peerLine, '', `${'variant'.padEnd(18)}${'connections'.padStart(12)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}  note`];
  rows.forEach((row, i) => {
    const cell = (/** @type {number | null} */ v, /** @type {number} */ w) => (v === null ? '-' : String(v)).padStart(w);
    lines.push(`${row.name.padEnd(18)}${cell(row.connections, 12)}${cell(row.p50Ms, 9)}${cell(row.p95Ms, 9)}  ${remarks[i]}`);
  });
  return `${lines.join('\n')}\n`;
}
