#!/usr/bin/env node
// npm run bench:transport-python [-- --calls N] [--hostile-calls N] [--rtt MS] [--level functions|sdk|both] [--json]
//
// The Python half of issue 33's proof: drainguard-httpx's transport under two real SDKs, no line of them
// changed. openai-python (2.54.0, its last release on httpx) and the MCP python-sdk (the v1.x branch, on
// httpx) are cloned at pinned commits from their public URLs (DRAINGUARD_SDK_MIRRORS=DIR clones
// DIR/<owner>+<name>/repo instead: a directory of bare git mirrors) into a cache
// (DRAINGUARD_TRANSPORT_CACHE, default ~/.cache/drainguard-transport-python).
//
// Each client makes N sequential calls through a TCP proxy that adds a round-trip delay (--rtt) to a
// Node server on 127.0.0.1 that counts connections (test/support/transport-python-server.mjs), once
// with the SDK's own HTTP client and once with drainguard-httpx's transport under it, against each body
// after the terminal event: end (5 ms later), silent (held open), trickle, flood, endless-line, reset.
// Two levels (bench/transport-python/drive.py):
//   functions  Debian's /usr/bin/python3 (python3-httpx 0.23, httpcore 0.16): the SDKs' streaming code as
//              written (openai's _streaming.py Stream/AsyncStream, MCP's StreamableHTTPTransport
//              ._handle_sse_response), loaded by scripts/python-suites/exercise.py, over an httpx client
//              made by the driver; the SDKs themselves cannot be imported there (pydantic 2, anyio 4, jiter).
//   sdk        a python3 with the SDKs' dependencies (DRAINGUARD_SDK_PYTHON; or DRAINGUARD_WHEELS=DIR, a
//              local wheel directory the bench makes a venv from with pip --no-index): the SDKs imported
//              from their clones, called through their public API (OpenAI(...).chat.completions.create
//              (stream=True); streamablehttp_client(..., httpx_client_factory=...) + ClientSession).
//              Not run, with the reason, without either.
// Prints the tables (or --json); exit 1 if a run failed, delivered other results than the SDK's own
// client, or reconnected.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDelayProxy } from '../test/support/delay-proxy.mjs';
import { percentile } from '../test/support/keepalive.mjs';
import { PYTHON } from '../test/support/python-keepalive.mjs';
import { TRANSPORT_MODES, startTransportPeer } from '../test/support/transport-python-server.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DRIVER = path.join(ROOT, 'bench', 'transport-python', 'drive.py');
const EXERCISE = path.join(ROOT, 'scripts', 'python-suites', 'exercise.py');
const CACHE = process.env.DRAINGUARD_TRANSPORT_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'drainguard-transport-python');

const TARGETS = {
  openai: { repo: 'openai/openai-python', commit: '03b3ec474241fe3a73c4818dc6b886da28faaf91', label: 'openai-python 2.54.0' },
  mcp: { repo: 'modelcontextprotocol/python-sdk', commit: '4dc224fab201bdef2fd5a065976b7ca31420187c', label: 'python-sdk v1.x (1.29.0+2)', version: '1.29.0' },
};
/** What each call returns when it worked: the chat text, the tool's text, or (functions level, MCP) the messages handed on. */
const CLIENTS = [
  { name: 'openai-sync', target: 'openai', format: { sdk: 'openai', functions: 'openai' }, expected: { sdk: 'Hello, world', functions: 'Hello, world' } },
  { name: 'openai-async', target: 'openai', format: { sdk: 'openai', functions: 'openai' }, expected: { sdk: 'Hello, world', functions: 'Hello, world' } },
  { name: 'mcp', target: 'mcp', format: { sdk: 'mcp', functions: 'sse' }, expected: { sdk: 'ok', functions: 2 } },
];
const SDK_WHEELS = ['httpx<1', 'httpcore', 'anyio>=4.5', 'sniffio', 'pydantic>=2.11', 'typing-extensions', 'typing-inspection', 'distro', 'tqdm', 'jiter', 'httpx-sse', 'starlette', 'sse-starlette', 'python-multipart', 'pydantic-settings', 'uvicorn', 'jsonschema', 'pyjwt[crypto]'];

const USAGE = `usage: npm run bench:transport-python -- [--calls N] [--hostile-calls N] [--rtt MS] [--level functions|sdk|both] [--json]`;
const options = { calls: 20, hostileCalls: 5, rttMs: 20, level: 'both', json: false };
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  const value = () => process.argv[++i];
  if (arg === '--calls') options.calls = Number(value());
  else if (arg === '--hostile-calls') options.hostileCalls = Number(value());
  else if (arg === '--rtt') options.rttMs = Number(value());
  else if (arg === '--level') options.level = value();
  else if (arg === '--json') options.json = true;
  else {
    console.error(USAGE);
    process.exit(2);
  }
}
if (![options.calls, options.hostileCalls, options.rttMs].every((n) => Number.isInteger(n) && n >= 0) || !['functions', 'sdk', 'both'].includes(options.level)) {
  console.error(USAGE);
  process.exit(2);
}
const say = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);

function git(/** @type {string[]} */ args, /** @type {string} */ cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The repository at its pinned commit: cloned once from its public URL (or the mirror), then checked out. */
function checkout(/** @type {{ repo: string, commit: string }} */ target) {
  const dir = path.join(CACHE, target.repo.replace('/', '+'));
  const mirrors = process.env.DRAINGUARD_SDK_MIRRORS;
  const source = mirrors ? path.join(mirrors, target.repo.replace('/', '+'), 'repo') : `https://github.com/${target.repo}.git`;
  if (!existsSync(path.join(dir, '.git'))) {
    mkdirSync(CACHE, { recursive: true });
    say(`${target.repo}: cloning ${mirrors ? 'the mirror' : source}`);
    git(['clone', '--quiet', '--no-checkout', source, dir], CACHE);
  }
  try {
    git(['cat-file', '-e', `${target.commit}^{commit}`], dir);
  } catch {
    git(['fetch', '--quiet', 'origin', target.commit], dir);
  }
  git(['checkout', '--quiet', '--force', '--detach', target.commit], dir);
  return dir;
}

const SDK_IMPORTS = 'import pydantic, jiter, distro, httpx_sse, starlette, sse_starlette, pydantic_settings, jsonschema, jwt, typing_inspection, anyio, httpx\nassert int(anyio.__version__.split(".")[0]) >= 4 if hasattr(anyio, "__version__") else True\nimport importlib.metadata as m\nassert int(m.version("anyio").split(".")[0]) >= 4, m.version("anyio")';

/** A python3 that can import both SDKs' dependencies, or why there is none. */
function sdkPython() {
  const check = (/** @type {string} */ python) => {
    const run = spawnSync(python, ['-c', SDK_IMPORTS], { encoding: 'utf8' });
    return run.status === 0 ? null : (run.stderr || run.error?.message || '').trim().split('\n').pop();
  };
  if (process.env.DRAINGUARD_SDK_PYTHON) {
    const python = process.env.DRAINGUARD_SDK_PYTHON;
    const missing = check(python);
    return missing ? { missing: `DRAINGUARD_SDK_PYTHON cannot import the SDKs' dependencies: ${missing}` } : { python };
  }
  if (process.env.DRAINGUARD_WHEELS) {
    const venv = path.join(CACHE, 'sdk-venv');
    const python = path.join(venv, 'bin', 'python');
    if (!existsSync(python) || check(python)) {
      say(`making ${venv} from the local wheel directory`);
      mkdirSync(CACHE, { recursive: true });
      execFileSync(PYTHON, ['-m', 'venv', venv], { stdio: 'inherit' });
      execFileSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-index', '--find-links', process.env.DRAINGUARD_WHEELS, ...SDK_WHEELS], { stdio: 'inherit' });
    }
    const missing = check(python);
    return missing ? { missing: `the venv made from DRAINGUARD_WHEELS cannot import the SDKs' dependencies: ${missing}` } : { python };
  }
  return { missing: "set DRAINGUARD_SDK_PYTHON (a python3 with openai-python's and the MCP SDK's dependencies: pydantic 2, anyio >= 4, jiter, httpx-sse, ...) or DRAINGUARD_WHEELS (a directory of their wheels)" };
}

function versions(/** @type {string} */ python) {
  const run = spawnSync(python, ['-c', 'import sys, httpx, httpcore, importlib.metadata as m\nprint(sys.version.split()[0], httpx.__version__, httpcore.__version__, m.version("anyio"))'], { encoding: 'utf8' });
  const [py, httpx, httpcore, anyio] = run.stdout.trim().split(' ');
  return { python: py, httpx, httpcore, anyio };
}

/** @returns {Promise<{ results: unknown[], ms: number[], errors: string[], stats: Record<string, number> | null } | { failed: string }>} */
function drive(/** @type {string} */ python, /** @type {object} */ config) {
  return new Promise((resolve) => {
    execFile(python, ['-W', 'ignore', DRIVER, JSON.stringify(config)], { timeout: 300_000, maxBuffer: 1 << 24, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } }, (error, stdout, stderr) => {
      if (error) resolve({ failed: `${error.message.split('\n')[0]}: ${stderr.trim().split('\n').slice(-2).join(' ')}` });
      else resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}'));
    });
  });
}

const round = (/** @type {number} */ x) => Math.round(x * 10) / 10;

async function runOne({ level, python, client, source, mode, transport }) {
  const calls = mode === 'end' ? options.calls : options.hostileCalls;
  const server = await startTransportPeer({ mode, format: client.format[level] });
  const proxy = await startDelayProxy({ target: server.url, rttMs: options.rttMs });
  try {
    const config = { client: client.name, level, source, url: proxy.url, calls, transport, exercise: EXERCISE, mcpVersion: TARGETS.mcp.version };
    const out = await drive(python, config);
    if ('failed' in out) return { level, client: client.name, mode, transport, calls, failed: out.failed };
    // The server sees a closed body a moment after the client closed it.
    await server.waitFor((s) => s.closedEarly + s.finished >= s.requests || s.requests === 0, 3000).catch(() => undefined);
    const stats = server.stats();
    const delivered = out.results.every((result) => JSON.stringify(result) === JSON.stringify(client.expected[level]));
    return {
      level,
      client: client.name,
      mode,
      transport,
      calls,
      requests: stats.requests,
      connections: stats.connections,
      closedEarly: stats.closedEarly,
      p50Ms: round(percentile(out.ms, 50)),
      // The first call of a run also pays the SDK's lazy set-up (pydantic models, ~1 s): p95 and the slowest call leave it out.
      p95Ms: round(percentile(out.ms.slice(1), 95)),
      maxMs: round(Math.max(...out.ms.slice(1))),
      delivered,
      errors: out.errors,
      drains: out.stats,
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}

const levels = options.level === 'both' ? ['functions', 'sdk'] : [options.level];
const sources = { openai: checkout(TARGETS.openai), mcp: checkout(TARGETS.mcp) };
const pythons = {};
const skipped = {};
for (const level of levels) {
  if (level === 'functions') pythons.functions = PYTHON;
  else {
    const found = sdkPython();
    if ('missing' in found) skipped.sdk = found.missing;
    else pythons.sdk = found.python;
  }
}
const runs = [];
for (const level of levels) {
  if (!pythons[level]) {
    say(`${level}: not run: ${skipped[level]}`);
    continue;
  }
  for (const client of CLIENTS) {
    for (const mode of TRANSPORT_MODES) {
      for (const transport of [false, true]) {
        const run = await runOne({ level, python: pythons[level], client, source: sources[client.target], mode, transport });
        say(`${level} ${client.name} ${mode} ${transport ? 'drainguard' : 'plain'}: ${run.failed ? `FAILED ${run.failed}` : `${run.connections} connections, ${run.requests} requests, p50 ${run.p50Ms} ms`}`);
        runs.push(run);
      }
    }
  }
}

function failures() {
  const found = [];
  for (const run of runs) {
    const label = `${run.level} ${run.client} ${run.mode} ${run.transport ? 'drainguard' : 'plain'}`;
    const extra = run.client === 'mcp' && run.level === 'sdk' ? 3 : 0; // initialize, notifications/initialized, tools/list
    if (run.failed) found.push(`${label}: ${run.failed}`);
    else if (!run.delivered) found.push(`${label}: not every call returned what the SDK's own client returns (${run.errors.join('; ')})`);
    else if (run.requests !== run.calls + extra) found.push(`${label}: ${run.requests} requests for ${run.calls} calls`);
  }
  return found;
}

const info = Object.fromEntries(Object.entries(pythons).map(([level, python]) => [level, versions(python)]));
const failed = failures();
if (options.json) {
  process.stdout.write(`${JSON.stringify({ calls: options.calls, hostileCalls: options.hostileCalls, rttMs: options.rttMs, targets: TARGETS, pythons: info, skipped, runs, failed }, null, 2)}\n`);
} else {
  const drains = (/** @type {Record<string, number> | null} */ d) =>
    d ? Object.entries(d).filter(([k, v]) => v > 0 && k !== 'bytes_read' && k !== 'largest').map(([k, v]) => `${v} ${k.replace('_', ' ')}`).join(', ') + (d.largest ? `; ≤ ${d.largest} B each` : '') : '';
  for (const level of levels) {
    if (!pythons[level]) {
      process.stdout.write(`### ${level}: not run\n\n${skipped[level]}\n\n`);
      continue;
    }
    const v = info[level];
    process.stdout.write(`### ${level === 'sdk' ? 'The SDKs through their public API' : "The SDKs' streaming functions as written"} (Python ${v.python}, httpx ${v.httpx}, httpcore ${v.httpcore}, anyio ${v.anyio}; RTT ${options.rttMs} ms)\n\n`);
    for (const client of CLIENTS) {
      process.stdout.write(`${client.name} (${TARGETS[client.target].label}):\n\n| after the terminal event | client | calls | requests | connections | closed early | p50 ms | p95 ms¹ | slowest ms¹ | errors | drains |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n`);
      for (const run of runs.filter((r) => r.level === level && r.client === client.name)) {
        const who = run.transport ? 'drainguard-httpx' : "the SDK's own";
        if (run.failed) process.stdout.write(`| ${run.mode} | ${who} | ${run.calls} | FAILED: ${run.failed} |\n`);
        else process.stdout.write(`| ${run.mode} | ${who} | ${run.calls} | ${run.requests} | ${run.connections} | ${run.closedEarly} | ${run.p50Ms} | ${run.p95Ms} | ${run.maxMs} | ${run.errors.length} | ${drains(run.drains)} |\n`);
      }
      process.stdout.write('\n');
    }
    process.stdout.write('¹ calls 2..N (the first also pays the SDK\'s lazy set-up). Requests: the MCP client also sends initialize, notifications/initialized and tools/list.\n\n');
  }
  process.stdout.write(failed.length === 0 ? 'all runs delivered what the SDK delivers, with no reconnect\n' : `FAILED:\n${failed.map((line) => `  ${line}`).join('\n')}\n`);
}
process.exit(failed.length === 0 ? 0 : 1);
