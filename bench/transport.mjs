#!/usr/bin/env node
// npm run bench:transport [-- --calls N] [--rtt MS] [--sdks LIST] [--modes LIST] [--call-timeout-ms MS] [--json]
//
// drainguard/undici without a line of the SDKs changed: each SDK (installed unmodified from npm into a cache folder
// outside the repository; the MCP TypeScript SDK is the repository's devDependency) makes N sequential streamed
// calls in a process of its own, once as it is and once started with `node --import drainguard/undici/register`,
// against a local server (bench/transport-sdks/server.mjs) behind a TCP proxy that adds a round-trip delay. The
// server counts connections, requests and bodies closed before their end, for a body that ends 20 ms after the
// terminal event and for each hostile one. Prints a table, or with --json
// { calls, rttMs, node, runs: [{ sdk, mode, transport, connections, requests, closedEarly, p50Ms, p95Ms, hung, error, sameResults }] }.
// An SDK's own error (the same with and without the transport, e.g. on a reset) is shown, not a failure. Exit codes:
// 0 ok, 1 a client process crashed or the transport changed what the calls did (results, an error, a hang), 2 usage error.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify, isDeepStrictEqual } from 'node:util';
import { percentile } from '../test/support/keepalive.mjs';
import { startDelayProxy } from '../test/support/delay-proxy.mjs';
import { installCorpus } from '../scripts/corpus-cache.mjs';
import { startSdkServer } from './transport-sdks/server.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SDKS = {
  openai: { api: 'openai', label: 'openai 7.59.0 (stops at [DONE])' },
  'anthropic-break': { api: 'anthropic', label: '@anthropic-ai/sdk 1.16.0, caller breaks at message_stop' },
  anthropic: { api: 'anthropic', label: '@anthropic-ai/sdk 1.16.0 (reads to the end)' },
  mcp: { api: 'mcp', label: '@modelcontextprotocol/sdk 1.32.2, one client' },
  'mcp-per-call': { api: 'mcp', label: '@modelcontextprotocol/sdk 1.32.2, a client per call' },
};
const MODES = { end: 'ends 20 ms after', silent: 'held open, silent', trickle: 'keep-alive every 100 ms', flood: 'floods 64 MiB', reset: 'reset 20 ms after' };

const USAGE = `usage: npm run bench:transport -- [options]
  --calls N              sequential calls per run (default 20, 1..1000)
  --rtt MS               round-trip delay added by the proxy (default 10, 0..1000)
  --sdks LIST            comma-separated, of ${Object.keys(SDKS).join(', ')} (default all)
  --modes LIST           comma-separated, of ${Object.keys(MODES).join(', ')} (default all)
  --call-timeout-ms MS   a call still running after this is aborted and the run marked hung (default 3000)
  --tls                  TLS between the SDK and the proxy (self-signed, needs openssl; the SDK process
                         trusts it through NODE_EXTRA_CA_CERTS)
  --node PATH            the node binary that runs the SDKs (default this one)
  --json                 print the runs as JSON
  --help`;

function usageError(message) {
  process.stderr.write(`bench:transport: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let flags;
try {
  flags = parseArgs({
    args: process.argv.slice(2),
    options: {
      calls: { type: 'string', default: '20' },
      rtt: { type: 'string', default: '10' },
      sdks: { type: 'string', default: Object.keys(SDKS).join(',') },
      modes: { type: 'string', default: Object.keys(MODES).join(',') },
      'call-timeout-ms': { type: 'string', default: '3000' },
      node: { type: 'string', default: process.execPath },
      json: { type: 'boolean', default: false },
      tls: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values;
} catch (error) {
  usageError(error instanceof Error ? error.message : String(error));
}
if (flags.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const whole = (raw, flag, min, max) => (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : usageError(`${flag} must be a whole number from ${min} to ${max}, got "${raw}"`));
const calls = whole(flags.calls, '--calls', 1, 1000);
const rttMs = whole(flags.rtt, '--rtt', 0, 1000);
const callTimeoutMs = whole(flags['call-timeout-ms'], '--call-timeout-ms', 1, 600_000);
const list = (raw, known, flag) => {
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(name in known));
  return unknown.length > 0 ? usageError(`${flag}: unknown ${unknown.join(', ')}`) : names;
};
const sdks = list(flags.sdks, SDKS, '--sdks');
const modes = list(flags.modes, MODES, '--modes');
const note = (line) => process.stderr.write(`${line}\n`);

const register = path.join(ROOT, 'dist', 'undici-register.js');
if (!existsSync(register)) usageError('dist/undici-register.js is missing: run npm run build first');
const sdkCorpus = {
  name: 'transport SDKs',
  dir: path.join(ROOT, 'bench', 'transport-sdks'),
  cache: process.env.DRAINGUARD_TRANSPORT_SDKS_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(process.env.HOME ?? ROOT, '.cache'), 'drainguard-transport-sdks'),
};
installCorpus(note, sdkCorpus);
const nodeVersion = (await promisify(execFile)(flags.node, ['--version'], { encoding: 'utf8' })).stdout.trim();
// With --tls, the proxy's certificate for the SDK processes to trust (each proxy makes its own: written per run).
const caDir = flags.tls ? mkdtempSync(path.join(tmpdir(), 'drainguard-bench-ca-')) : undefined;
let tlsUsed = flags.tls;

const CRASHED = 'the client process failed: ';

/** One run: the SDK's calls in a fresh process against a fresh server and proxy. */
async function run(sdk, mode, transport) {
  const server = await startSdkServer({ api: SDKS[sdk].api, mode });
  const proxy = await startDelayProxy({ target: server.url, rttMs, tls: tlsUsed });
  const env = { ...process.env };
  if (tlsUsed && !proxy.tls) {
    note(`TLS skipped: ${proxy.tlsSkipReason}`);
    tlsUsed = false;
  } else if (proxy.ca && caDir) {
    const caFile = path.join(caDir, 'ca.pem');
    writeFileSync(caFile, proxy.ca);
    env.NODE_EXTRA_CA_CERTS = caFile;
  }
  try {
    const args = [...(transport ? ['--import', pathToFileURL(register).href] : []), path.join(ROOT, 'bench', 'transport-sdks', 'client.mjs'), sdk, proxy.url, String(calls), String(callTimeoutMs), sdkCorpus.cache];
    let out;
    try {
      const { stdout } = await promisify(execFile)(flags.node, args, { env, encoding: 'utf8', timeout: calls * callTimeoutMs + 30_000, maxBuffer: 16 * 1024 * 1024 });
      out = JSON.parse(stdout);
    } catch (error) {
      out = { latenciesMs: [], results: [], hung: false, error: `${CRASHED}${String(error.stderr || error.message).trim().split('\n').at(-1)}` };
    }
    // Let the server see the closes of a process that just exited.
    await server.waitFor((s) => s.finished + s.closedEarly >= s.requests, 1000).catch(() => {});
    const stats = server.stats();
    const round = (value) => (Number.isNaN(value) ? null : Math.round(value * 10) / 10);
    return {
      sdk,
      mode,
      transport,
      connections: stats.connections,
      requests: stats.requests,
      closedEarly: stats.closedEarly,
      p50Ms: round(percentile(out.latenciesMs, 50)),
      p95Ms: round(percentile(out.latenciesMs, 95)),
      calls: out.latenciesMs.length,
      hung: out.hung,
      error: out.error,
      results: out.results,
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}

const runs = [];
let failed = false;
for (const sdk of sdks) {
  for (const mode of modes) {
    if (process.stderr.isTTY) note(`bench:transport: ${sdk}, body ${mode}…`);
    const without = await run(sdk, mode, false);
    const withTransport = await run(sdk, mode, true);
    // The transport must not change what the calls do: the same results, the same error, a hang only where there was one.
    const sameResults = isDeepStrictEqual(without.results, withTransport.results);
    for (const result of [without, withTransport]) {
      if (result.error) note(`${sdk}, ${mode}, ${result.transport ? 'with' : 'without'} the transport: ${result.error}`);
      if (result.error?.startsWith(CRASHED)) failed = true;
      const { results, ...row } = result;
      runs.push({ ...row, sameResults });
    }
    const changed = [
      !sameResults && 'the calls returned different results',
      without.error !== withTransport.error && 'the calls ended with a different error',
      without.hung !== withTransport.hung && `a call hung ${withTransport.hung ? 'only with' : 'only without'} it`,
    ].filter(Boolean);
    if (changed.length > 0) {
      note(`${sdk}, ${mode}: with the transport ${changed.join(', ')}`);
      failed = true;
    }
  }
}

if (caDir) rmSync(caDir, { recursive: true, force: true });
if (flags.json) process.stdout.write(`${JSON.stringify({ calls, rttMs, tls: tlsUsed, node: nodeVersion, runs })}\n`);
else process.stdout.write(table());
process.exitCode = failed ? 1 : 0;

function table() {
  const cell = (run) => {
    if (run.error) return `error after ${run.calls} calls: ${run.error.slice(0, 40)}`;
    if (run.hung) return `${run.connections} / hung at call ${run.calls + 1}`;
    return `${run.connections} / ${run.p50Ms}${run.closedEarly > 0 ? ` / ${run.closedEarly} closed early` : ''}`;
  };
  const rows = [['sdk', 'after the terminal event', 'without: connections / p50 ms', 'with drainguard/undici']];
  for (let i = 0; i < runs.length; i += 2) rows.push([runs[i].sdk, MODES[runs[i].mode], cell(runs[i]), cell(runs[i + 1])]);
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const lines = rows.map((row) =>
    row
      .map((text, column) => text.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
  const legend = sdks.map((sdk) => `  ${sdk}: ${SDKS[sdk].label}`);
  return [
    `drainguard transport bench: ${calls} sequential calls per run, RTT ${rttMs} ms, TLS ${tlsUsed ? 'on' : 'off'}, ${nodeVersion}; connections and closes counted by the server`,
    ...legend,
    '',
    ...lines,
    '',
    `A hung run stopped at its first call still running after ${callTimeoutMs} ms (the SDK waits for the end of the body).`,
    'An error is the SDK\'s own, thrown by a call (the same with and without the transport unless said on stderr).',
    '',
  ].join('\n');
}
