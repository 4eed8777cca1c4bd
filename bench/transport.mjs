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
// Exit codes: 0 ok, 1 a run failed or the transport changed what a call returned, 2 usage error.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/** One run: the SDK's calls in a fresh process against a fresh server and proxy. */
async function run(sdk, mode, transport) {
  const server = await startSdkServer({ api: SDKS[sdk].api, mode });
  const proxy = await startDelayProxy({ target: server.url, rttMs });
  try {
    const args = [...(transport ? ['--import', pathToFileURL(register).href] : []), path.join(ROOT, 'bench', 'transport-sdks', 'client.mjs'), sdk, proxy.url, String(calls), String(callTimeoutMs), sdkCorpus.cache];
    let out;
    try {
      const { stdout } = await promisify(execFile)(flags.node, args, { encoding: 'utf8', timeout: calls * callTimeoutMs + 30_000, maxBuffer: 16 * 1024 * 1024 });
      out = JSON.parse(stdout);
    } catch (error) {
      out = { latenciesMs: [], results: [], hung: false, error: `the client process failed: ${String(error.stderr || error.message).trim().split('\n').at(-1)}` };
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
    // The transport must not change what a call returns.
    const sameResults = isDeepStrictEqual(without.results, withTransport.results);
    for (const result of [without, withTransport]) {
      if (result.error) {
        note(`${sdk}, ${mode}, ${result.transport ? 'with' : 'without'} the transport: ${result.error}`);
        failed = true;
      }
      const { results, ...row } = result;
      runs.push({ ...row, sameResults });
    }
    if (!sameResults) {
      note(`${sdk}, ${mode}: the calls returned different results with the transport`);
      failed = true;
    }
  }
}

if (flags.json) process.stdout.write(`${JSON.stringify({ calls, rttMs, node: nodeVersion, runs })}\n`);
else process.stdout.write(table());
process.exitCode = failed ? 1 : 0;

function table() {
  const cell = (run) => {
    if (run.error) return 'error';
    const p50 = run.p50Ms === null ? '-' : String(run.p50Ms);
    return `${run.connections} / ${p50}${run.hung ? ` (hung at call ${run.calls + 1})` : ''}${run.closedEarly > 0 ? ` / ${run.closedEarly} closed early` : ''}`;
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
    `drainguard transport bench: ${calls} sequential calls per run, RTT ${rttMs} ms, ${nodeVersion}; connections and closes counted by the server`,
    ...legend,
    '',
    ...lines,
    '',
    `A hung run stopped at its first call still running after ${callTimeoutMs} ms (the SDK waits for the end of the body).`,
    '',
  ].join('\n');
}
