#!/usr/bin/env node
// npm run sdk-suites:python [-- --json] [--keep]
//
// The proof on the seed: drainguard fix on the MCP Python SDK (main and v1.x) and openai-python at pinned
// commits, cloned from their public URLs (DRAINGUARD_SDK_MIRRORS=DIR clones DIR/<owner>+<name>/repo
// instead: a directory of bare git mirrors). For each repository it checks that
//   - every changed file compiles (Debian's python3),
//   - ruff, with the repository's own configuration ([tool.ruff] of its pyproject.toml, through
//     @astral-sh/ruff-wasm-nodejs), finds nothing in a changed file that it did not find before,
//   - a second `drainguard fix` changes nothing,
//   - the rewritten functions, run as written (scripts/python-suites/exercise.py) against a Node server on
//     127.0.0.1 that counts connections, reuse one connection where the original opens one per call, and
//     return, deliver the same messages and reconnect nowhere when the body after the terminal event is
//     silent, trickles, floods (events, SSE comments, one endless line), ends late or is reset; the original
//     runs against the same bodies, and each run reports the bytes a call read from the network (counted at
//     httpcore's network stream), how long the caller waited after it had its last message, and peak memory.
// Every run uses Debian's python3 (httpx 0.23, httpcore 0.16.3, anyio 3.6); with DRAINGUARD_MODERN_PYTHON (a
// python3 with httpx >= 0.25, anyio >= 4 and trio) the async functions run there too, under anyio on asyncio
// and on trio.
// Prints the diffs and a summary; exit 1 if a check failed.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PositionEncoding, Workspace } from '@astral-sh/ruff-wasm-nodejs';
import { parse } from 'smol-toml';
import { startHostileServer } from '../test/support/python-hostile-server.mjs';
import { PYTHON, modernPython } from '../test/support/python-keepalive.mjs';
import { expectedMessages } from '../test/support/sse-server.mjs';
import { checkoutPinned } from './pinned-checkout.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist', 'cli.js');
const EXERCISE = path.join(ROOT, 'scripts', 'python-suites', 'exercise.py');
const CACHE = process.env.DRAINGUARD_SDK_SUITES_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'drainguard-python-suites');
/** Calls per scenario: against a body that ends (connection reuse), and against one that does not (each waits out the budget). */
const CALLS = 10;
const HOSTILE_CALLS = 3;
const HOSTILE_MODES = ['silent', 'trickle', 'flood', 'comments', 'line', 'hold', 'reset'];
/** What a rewritten call may read from the network: the byte limit (128 KiB), the chunk the terminal event came in and one more chunk (64 KiB each). */
const MAX_BYTES_PER_CALL = 131072 + 2 * 65536;

const TARGETS = [
  {
    name: 'mcp-python-sdk-main',
    repo: 'modelcontextprotocol/python-sdk',
    commit: '57394b0548d1e2dc2dce8d67d84985769df3b8bb',
    kind: 'mcp',
    file: 'src/mcp/client/streamable_http.py',
    scenarios: [{ name: 'sse_response', async: true }, { name: 'resumption', async: true }, { name: 'reconnection', async: true }],
  },
  {
    name: 'mcp-python-sdk-v1.x',
    repo: 'modelcontextprotocol/python-sdk',
    commit: '4dc224fab201bdef2fd5a065976b7ca31420187c',
    kind: 'mcp',
    file: 'src/mcp/client/streamable_http.py',
    scenarios: [{ name: 'sse_response', async: true }, { name: 'resumption', async: true }, { name: 'reconnection', async: true }],
  },
  {
    name: 'openai-python',
    repo: 'openai/openai-python',
    commit: 'e43b422412a9e96c9cc5192c61fffbe2d7e04836',
    kind: 'openai',
    file: 'src/openai/_streaming.py',
    scenarios: [{ name: 'stream', async: false }, { name: 'async_stream', async: true }],
  },
];

const json = process.argv.includes('--json');
const say = (/** @type {string} */ line) => process.stderr.write(`${line}\n`);

function git(/** @type {string[]} */ args, /** @type {string} */ cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The repository at its pinned commit, pristine: cloned once from its public URL (or the mirror), then reset. */
function checkout(target) {
  return checkoutPinned(target, CACHE, { say });
}

function fix(dir) {
  const out = execFileSync(process.execPath, [CLI, 'fix', '--force', '--json', 'src'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out);
}

/** ruff's settings as the repository declares them, for the wasm build (it sees no file system: the packages under src/ are listed as first-party, as ruff finds them). */
function ruffSettings(dir) {
  const pyproject = parse(readFileSync(path.join(dir, 'pyproject.toml'), 'utf8'));
  const ruff = structuredClone(pyproject.tool?.ruff ?? {});
  for (const key of ['extend-exclude', 'exclude', 'src', 'output-format', 'cache-dir', 'required-version', 'force-exclude', 'respect-gitignore', 'format']) delete ruff[key];
  ruff.lint ??= {};
  delete ruff.lint['per-file-ignores'];
  const isort = (ruff.lint.isort ??= {});
  const firstParty = new Set(isort['known-first-party'] ?? []);
  for (const entry of readdirSync(path.join(dir, 'src'))) if (existsSync(path.join(dir, 'src', entry, '__init__.py'))) firstParty.add(entry);
  isort['known-first-party'] = [...firstParty];
  return ruff;
}

function ruffCheck(workspace, text) {
  return workspace.check(text).map((d) => `${d.code ?? 'syntax'} ${d.message}`);
}

function compiles(file) {
  try {
    execFileSync(PYTHON, ['-c', 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    return null;
  } catch (error) {
    return String(error.stderr ?? error).trim();
  }
}

function exercise({ python, backend, kind, file, plan }) {
  const args = [EXERCISE, '--backend', backend, kind, file, ...plan.flatMap(({ scenario, url, calls }) => [scenario, url, String(calls)])];
  return new Promise((resolve) => {
    execFile(python, args, { timeout: 120_000, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      if (error) resolve({ error: `${error.message.split('\n')[0]}\n${stderr.trim().split('\n').slice(-3).join('\n')}` });
      else resolve(JSON.parse(stdout.trim().split('\n').pop()));
    });
  });
}

function median(/** @type {number[]} */ values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs the scenarios of one file against a fresh server in `mode`; returns the server's counts and whether every call delivered the events. */
async function exerciseOne({ python, backend, kind, file, scenarios, mode }) {
  const server = await startHostileServer({ mode });
  const perScenario = mode === 'end' ? CALLS : HOSTILE_CALLS;
  try {
    const result = await exercise({ python, backend, kind, file, plan: scenarios.map((scenario) => ({ scenario: scenario.name, url: server.url, calls: perScenario })) });
    const calls = scenarios.length * perScenario;
    say(`  ${path.basename(file)} ${mode} (${backend}): ${'error' in result ? 'failed' : `${server.connections()} connections for ${calls} calls`}`);
    if ('error' in result) return { mode, backend, error: result.error };
    const delivered = result.runs.every((run) => run.results.every((messages) => JSON.stringify(messages) === JSON.stringify(expectedMessages(2, 'sse'))));
    if (!['end', 'reset', 'hold'].includes(mode)) await server.waitFor(() => server.closedByClient() === calls, 10_000).catch(() => undefined);
    const all = (/** @type {string} */ key) => result.runs.flatMap((run) => run[key]);
    const waits = result.runs.flatMap((run) => run.ms.map((ms, i) => ms - run.handover_ms[i]));
    return {
      mode,
      backend,
      calls,
      connections: server.connections(),
      requests: server.requests(),
      closedByClient: server.closedByClient(),
      delivered,
      maxBytes: Math.max(...all('bytes')),
      medianWaitMs: median(waits),
      maxWaitMs: Math.max(...waits),
      maxRssMb: Math.round(result.maxrss_kb / 1024),
    };
  } finally {
    await server.close();
  }
}

async function proveTarget(target, modern) {
  const dir = checkout(target);
  const report = fix(dir);
  const changed = report.files.filter((file) => file.changed);
  // The test of the helper is a new file: in the diff as one, with no ruff findings before it.
  const created = changed.filter((file) => file.test === 'created').map((file) => path.relative(dir, file.path));
  if (created.length > 0) git(['add', '--intent-to-add', '--', ...created], dir);
  const diff = git(['diff'], dir);
  const workspace = new Workspace(ruffSettings(dir), PositionEncoding.Utf16);
  const files = changed.map((file) => {
    const relative = path.relative(dir, file.path);
    const before = created.includes(relative) ? [] : ruffCheck(workspace, git(['show', `HEAD:${relative}`], dir));
    const after = ruffCheck(workspace, readFileSync(file.path, 'utf8'));
    return { path: relative, sites: file.sites, compileError: compiles(file.path), ruffBefore: before.length, ruffBeforeCodes: before, ruffAdded: after.filter((d) => !before.includes(d)) };
  });
  const second = fix(dir);
  const secondRunChanges = second.files.filter((file) => file.changed).map((file) => path.relative(dir, file.path));

  const work = mkdtempSync(path.join(tmpdir(), `drainguard-${target.name}-`));
  const original = path.join(work, 'original.py');
  writeFileSync(original, git(['show', `HEAD:${target.file}`], dir));
  const rewritten = path.join(dir, target.file);
  const runs = [];
  const asyncScenarios = target.scenarios.filter((scenario) => scenario.async);
  const syncScenarios = target.scenarios.filter((scenario) => !scenario.async);
  const backend = target.kind === 'mcp' ? 'anyio-asyncio' : 'asyncio';
  // Connection reuse, then each hostile body: the original and the rewrite, on Debian's python3 (and the async
  // functions on the modern one too, under anyio on asyncio and on trio, where there is one).
  for (const mode of ['end', ...HOSTILE_MODES]) {
    for (const [variant, file] of [['original', original], ['rewritten', rewritten]]) {
      if (syncScenarios.length > 0) runs.push({ variant, ...(await exerciseOne({ python: PYTHON, backend, kind: target.kind, file, scenarios: syncScenarios, mode })), backend: 'sync' });
      if (asyncScenarios.length === 0) continue;
      runs.push({ variant, ...(await exerciseOne({ python: PYTHON, backend, kind: target.kind, file, scenarios: asyncScenarios, mode })) });
      if ('missing' in modern) continue;
      for (const anyBackend of ['anyio-asyncio', 'anyio-trio']) {
        runs.push({ variant, python: 'modern', ...(await exerciseOne({ python: modern.python, backend: anyBackend, kind: target.kind, file, scenarios: asyncScenarios, mode })) });
      }
    }
  }
  if ('missing' in modern) runs.push({ variant: 'rewritten', mode: 'all', backend: 'anyio on asyncio and trio, modern', skipped: modern.missing });
  rmSync(work, { recursive: true, force: true });
  if (created.length > 0) git(['rm', '--quiet', '--cached', '--', ...created], dir);
  git(['checkout', '--quiet', '--force', 'HEAD', '--', '.'], dir);
  return { name: target.name, repo: target.repo, commit: target.commit, summary: report.summary, files, secondRunChanges, runs, diff };
}

function failures(result) {
  const found = [];
  for (const file of result.files) {
    if (file.compileError) found.push(`${file.path} does not compile: ${file.compileError}`);
    if (file.ruffAdded.length > 0) found.push(`${file.path}: ruff finds ${file.ruffAdded.join('; ')}`);
    for (const site of file.sites) if (site.status !== 'fixed') found.push(`${file.path}:${site.line}:${site.column} ${site.status}: ${site.reason}`);
  }
  if (result.secondRunChanges.length > 0) found.push(`a second run changed ${result.secondRunChanges.join(', ')}`);
  for (const run of result.runs) {
    const label = `${run.variant} ${run.mode} (${run.backend})`;
    if (run.skipped) continue;
    if (run.error) found.push(`${label} failed: ${run.error}`);
    else if (!run.delivered) found.push(`${label}: not every call delivered the events`);
    else if (run.requests !== run.calls) found.push(`${label}: ${run.requests} requests for ${run.calls} calls (a reconnect)`);
    else if (run.variant === 'original' && run.connections < run.calls - 2) found.push(`${label}: the original reused connections (${run.connections} for ${run.calls} calls): the check proves nothing`);
    else if (run.variant === 'rewritten' && run.mode === 'end' && run.connections > 2) found.push(`${label}: ${run.connections} connections for ${run.calls} calls`);
    else if (run.variant === 'rewritten' && ['silent', 'trickle', 'flood', 'comments', 'line'].includes(run.mode) && run.closedByClient !== run.calls) found.push(`${label}: ${run.closedByClient} of ${run.calls} responses closed`);
    else if (run.variant === 'rewritten' && run.maxBytes > MAX_BYTES_PER_CALL) found.push(`${label}: a call read ${run.maxBytes} bytes (the byte limit allows ${MAX_BYTES_PER_CALL})`);
  }
  return found;
}

const modern = modernPython();
if (!existsSync(CLI)) {
  say(`drainguard is not built (${CLI}): run npm run build first`);
  process.exit(2);
}
const results = [];
for (const target of TARGETS) results.push(await proveTarget(target, modern));
const failed = results.flatMap((result) => failures(result).map((line) => `${result.name}: ${line}`));
if (json) process.stdout.write(`${JSON.stringify({ results, failed }, null, 2)}\n`);
else {
  for (const result of results) {
    process.stdout.write(`## ${result.name} (${result.repo} @ ${result.commit.slice(0, 9)})\n\n`);
    process.stdout.write(`fix: ${JSON.stringify(result.summary)}; second run changed: ${result.secondRunChanges.length === 0 ? 'nothing' : result.secondRunChanges.join(', ')}\n`);
    for (const file of result.files) {
      process.stdout.write(`${file.path}: ${file.sites.map((site) => `${site.line}:${site.column} ${site.status}`).join(', ')}; compiles: ${file.compileError ? 'NO' : 'yes'}; ruff (repository settings): ${file.ruffBefore} before${file.ruffBefore ? ` (${file.ruffBeforeCodes.join('; ')})` : ''}, ${file.ruffAdded.length} added\n`);
    }
    for (const run of result.runs) {
      if (run.skipped) process.stdout.write(`  ${run.variant} ${run.mode} (${run.backend}): not run: ${run.skipped}\n`);
      else if (run.error) process.stdout.write(`  ${run.variant} ${run.mode} (${run.backend}): FAILED ${run.error}\n`);
      else {
        process.stdout.write(
          `  ${run.variant} ${run.mode} (${run.backend}${run.python ? `, ${run.python}` : ''}): ${run.calls} calls, ${run.connections} connections, ${run.requests} requests, ${run.closedByClient} closed by the client, ` +
            `events ${run.delivered ? 'delivered' : 'NOT delivered'}; per call at most ${run.maxBytes} bytes read; caller waited ${run.medianWaitMs.toFixed(1)} ms (median), ${run.maxWaitMs.toFixed(1)} ms (max) after its last message; peak memory ${run.maxRssMb} MB\n`,
        );
      }
    }
    process.stdout.write(`\n\`\`\`diff\n${result.diff}\`\`\`\n\n`);
  }
  process.stdout.write(failed.length === 0 ? 'all checks passed\n' : `FAILED:\n${failed.map((line) => `  ${line}`).join('\n')}\n`);
}
process.exit(failed.length === 0 ? 0 : 1);
