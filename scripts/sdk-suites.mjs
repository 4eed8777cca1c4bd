#!/usr/bin/env node
// npm run sdk-suites: the proof that `drainguard fix` can be merged blind on real SDKs. For each SDK
// of scripts/sdk-suites/sdks.mjs (cloned from its public URL at a pinned commit into a cache folder
// outside this repository, never committed; DRAINGUARD_SDK_MIRROR=<template with {owner} and
// {name}> clones from a local mirror instead): its own type-check and test suite before the fix (the
// baseline, cached per commit), `drainguard fix --force <its source folder>`, the same after it
// (each test bounded, so a hang is a failure), the repository's own lint and format checks on the
// changed files before and after, and a real-server probe of the SDK's streaming call (SDKs with a
// probe in probe-calls.mjs), original against rewrite: each body drainguard's stream server sends
// after the terminal event (ends, held silent, trickling, a flood of comments, one endless line,
// reset), with Node's fetch and, where the SDK takes one, node-fetch 2 as its custom fetch:
// connections, bytes read after the terminal event, the caller's wait, errors, messages
// (probe.mjs, probe-report.mjs); and `drainguard prove` on the same call. Then a report: the fix's
// sites, new type errors, new failing tests with their assertions, hangs, check output, the probe's
// table. A new failure whose failing line asserts that a cancel/abort spy was called checks the early
// close itself (a maintainer updates it) and is listed as such. Exit 0 when nothing else got worse
// (type errors, hangs, other new failures, a check that passed before and fails after, a probe row
// where the rewrite is worse than the original beyond the bounds, a failed probe), 1 when something
// did, 2 on a setup error.
//
//   node scripts/sdk-suites.mjs [--drainguard DIR] [--no-build] [--sdk NAME]... [--out DIR]
//        [--test-timeout-ms N] [--suite-timeout-ms N] [--calls N] [--rebaseline]
//        [--probe-only]  (fix and probe, without type-check, test suites and checks)
//        [--no-prove]  (the probe without `drainguard prove`)
//        [--fix-arg ARG]...  (passed on to `drainguard fix`, e.g. --fix-arg=--no-verify)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSdk } from './sdk-suites/bundle.mjs';
import { changedFiles, fileStats, runChecks, runChecksBefore } from './sdk-suites/checks.mjs';
import { preparePristine } from './sdk-suites/checkout.mjs';
import { nodeBinDir, sdkEnv } from './sdk-suites/node-runtime.mjs';
import { BODY_MODES, PROBES } from './sdk-suites/probe-calls.mjs';
import { proveSdk } from './sdk-suites/prove.mjs';
import { drainMaxBytes, mergeRemeasured, rowsToRemeasure } from './sdk-suites/probe-report.mjs';
import { formatResultsSection, formatSdkReport, worseThanBefore } from './sdk-suites/report.mjs';
import {
  assertionSite,
  assertsEarlyClose,
  compareSuites,
  mergeSuiteRuns,
  newDiagnostics,
  parseTscDiagnostics,
  readVitestReport,
  settleRerun,
} from './sdk-suites/results.mjs';
import { run } from './sdk-suites/run.mjs';
import { CACHE_DIR, SDKS } from './sdk-suites/sdks.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');

const { values: options } = parseCommandLine({
  options: {
    drainguard: { type: 'string', default: REPO },
    'no-build': { type: 'boolean', default: false },
    sdk: { type: 'string', multiple: true },
    out: { type: 'string' },
    'test-timeout-ms': { type: 'string', default: '30000' },
    'suite-timeout-ms': { type: 'string', default: String(20 * 60_000) },
    calls: { type: 'string', default: '10' },
    rebaseline: { type: 'boolean', default: false },
    'probe-only': { type: 'boolean', default: false },
    'no-prove': { type: 'boolean', default: false },
    'fix-arg': { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

/** parseArgs, with a usage error (exit 2) instead of a stack trace. @param {import('node:util').ParseArgsConfig} config */
function parseCommandLine(config) {
  try {
    return parseArgs(config);
  } catch (error) {
    process.stderr.write(`sdk-suites: ${error.message} (--help lists the options)\n`);
    process.exit(2);
  }
}
if (options.help) {
  const header = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1);
  process.stdout.write(header.slice(0, header.findIndex((line) => !line.startsWith('//'))).join('\n').replace(/^\/\/ ?/gm, '') + '\n');
  process.exit(0);
}

const log = (line = '') => process.stderr.write(`${line}\n`);
const drainguardDir = path.resolve(options.drainguard);
const cli = path.join(drainguardDir, 'dist/cli.js');
// The probe's peer is this repository's stream server (drainguard/testing), whichever drainguard is fixed with.
const testingModule = path.join(REPO, 'dist/testing.js');
const testTimeoutMs = positive('test-timeout-ms');
const suiteTimeoutMs = positive('suite-timeout-ms');
const calls = positive('calls');
const wanted = options.sdk ?? SDKS.map((sdk) => sdk.name);
const unknown = wanted.filter((name) => !SDKS.some((sdk) => sdk.name === name));
if (unknown.length) fail(`unknown --sdk ${unknown.join(', ')} (known: ${SDKS.map((sdk) => sdk.name).join(', ')})`);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const outDir = path.resolve(options.out ?? path.join(CACHE_DIR, 'runs', stamp));
mkdirSync(outDir, { recursive: true });

/** What --probe-only puts where a type-check or suite would be. */
const NOT_RUN_TSC = { code: null, ms: 0, diagnostics: [], output: '' };
const NOT_RUN_SUITE = { ran: false, killed: false, ms: 0, counts: {}, tests: [] };

/** @param {string} name */
function positive(name) {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value <= 0) fail(`--${name} takes a positive integer, not ${options[name]}`);
  return value;
}

/** @param {string} message @returns {never} */
function fail(message) {
  process.stderr.write(`sdk-suites: ${message}\n`);
  process.exit(2);
}

async function drainguardCommit() {
  const head = await run('git', ['rev-parse', 'HEAD'], { cwd: drainguardDir });
  const dirty = await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: drainguardDir });
  return `${head.stdout.trim() || 'unknown'}${dirty.stdout.trim() ? ' (+ uncommitted changes)' : ''}`;
}

/**
 * One SDK's checkout and the environment its commands run in.
 * @typedef {{ sdk: import('./sdk-suites/sdks.mjs').Sdk, dir: string, env: NodeJS.ProcessEnv, node: string }} Target
 */

/** @param {Target} target */
async function typecheck({ sdk, dir, env }) {
  const [command, ...args] = sdk.typecheck.command;
  const result = await run(command, args, { cwd: path.join(dir, sdk.typecheck.cwd), env, timeoutMs: 15 * 60_000 });
  const output = result.stdout + result.stderr;
  return { code: result.code, ms: result.ms, diagnostics: parseTscDiagnostics(output), output: output.slice(0, 20_000) };
}

/**
 * Every run of the suite (or, with `only`, the runs and files it names).
 * @param {Target} target @param {string} label
 * @param {Map<string, string[]>} [only] run label -> test files
 */
async function testSuite({ sdk, dir, env }, label, only) {
  const runs = [];
  for (const testRun of sdk.tests) {
    const files = only?.get(testRun.label);
    if (only && !files) continue;
    const reportFile = path.join(outDir, `${sdk.name}-${label}-${testRun.label.replace(/\W+/g, '_')}-vitest.json`);
    const cwd = path.join(dir, testRun.cwd);
    const [command, ...args] = testRun.command;
    // jest's --json report has the shape of vitest's json reporter (vitest made it so).
    const flags =
      testRun.runner === 'jest'
        ? ['--json', `--outputFile=${reportFile}`, `--testTimeout=${testTimeoutMs}`]
        : ['--reporter=json', `--outputFile=${reportFile}`, `--testTimeout=${testTimeoutMs}`, `--hookTimeout=${testTimeoutMs}`];
    log(`${sdk.name}: tests ${label}, ${testRun.label} (${[command, ...args].join(' ')}) …`);
    const result = await run(command, [...args, ...flags, ...(files ?? [])], { cwd, env, timeoutMs: suiteTimeoutMs });
    writeFileSync(reportFile.replace(/-vitest\.json$/, '-vitest.log'), result.stdout + result.stderr);
    runs.push(readVitestReport(reportFile, cwd, { killed: result.timedOut, ms: result.ms, testTimeoutMs, run: testRun.label, prefix: sdk.tests.length > 1 }));
  }
  return mergeSuiteRuns(runs);
}

/** @param {Target} target @param {string} label */
async function probe(target, label) {
  const { sdk, dir } = target;
  if (!sdk.entry || !PROBES[sdk.name]) return null;
  const bundle = probeBundle(sdk, label);
  try {
    await bundleSdk(sdk, dir, bundle);
  } catch (error) {
    return { error: `bundling ${sdk.entry} failed: ${String(error?.message ?? error).split('\n')[0]}` };
  }
  const probed = await runProbe(target, label);
  if (probed.error || options['no-prove']) return probed;
  log(`${sdk.name}: drainguard prove ${label} …`);
  return { ...probed, prove: await proveSdk({ cli, node: target.node, sdkName: sdk.name, bundle, calls, scriptDir: path.dirname(bundle) }) };
}

/** @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {string} label */
function probeBundle(sdk, label) {
  return path.join(CACHE_DIR, 'probe', `${sdk.name}-${label}.mjs`);
}

/**
 * probe.mjs on the bundle of `label`, every row or those `only` names (`caller/mode`).
 * @param {Target} target @param {string} label @param {string[]} [only]
 */
async function runProbe({ sdk, dir, node }, label, only) {
  const spec = PROBES[sdk.name];
  const rows = only?.length ?? spec.callers.length * BODY_MODES.length;
  // Each scenario: the calls (a few ms each, seconds on a loaded machine) and up to 5 s for the drains to end.
  const boundMs = rows * 2 * (calls * 3000 + 8000) + 60_000;
  const what = only ? only.join(', ') : `${spec.callers.join(', ')}; ${BODY_MODES.join(', ')}`;
  log(`${sdk.name}: probe ${label} (${what}; ${calls} calls back to back and ${calls} paced) …`);
  const args = [path.join(HERE, 'sdk-suites/probe.mjs'), sdk.name, probeBundle(sdk, label), String(calls), testingModule, ...(only ? [only.join(',')] : [])];
  const result = await run(node, args, { cwd: dir, timeoutMs: boundMs });
  if (result.timedOut) return { error: `the probe did not finish within ${boundMs} ms (hang)` };
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    return { error: `the probe exited ${result.code}: ${(result.stderr || result.stdout).slice(0, 2000)}` };
  }
}

/**
 * A probe row worse only by the caller's wait is measured again, original and rewrite, and the second
 * run replaces the first (the report names such rows and what the first run said).
 * @param {Target} target @param {any} before @param {any} after @param {{ maxBytes: number }} limits
 */
async function remeasureWaits(target, before, after, limits) {
  const rows = rowsToRemeasure(before, after, limits);
  if (rows.length === 0) return;
  const only = rows.map((row) => `${row.caller}/${row.mode}`);
  log(`${target.sdk.name}: worse only by the wait, measured again: ${only.join(', ')}`);
  mergeRemeasured(before, after, await runProbe(target, 'before', only), await runProbe(target, 'after', only), rows);
}

/**
 * Runs the files of the new failures once more: a test that passes then is reported as flaky (the
 * openai-node suite has some: CPU-heavy tests time out on a loaded machine) and leaves the lists of
 * new failures and hangs.
 * @param {Target} target
 * @param {ReturnType<typeof compareSuites>} comparison
 */
async function rerunNewFailures(target, comparison) {
  if (comparison.newFailures.length === 0) return [];
  /** @type {Map<string, string[]>} */
  const only = new Map();
  for (const test of comparison.newFailures) only.set(test.run, [...new Set([...(only.get(test.run) ?? []), test.file])]);
  return settleRerun(comparison, await testSuite(target, 'after-rerun', only));
}

/**
 * The baseline type-check and suite do not depend on drainguard: they are cached per SDK commit,
 * Node version, commands and test timeout. The probe of the pristine source is cheap and always runs.
 * @param {Target} target
 */
async function baseline(target) {
  const { sdk } = target;
  if (options['probe-only']) {
    log(`${sdk.name}: probe before …`);
    return { tsc: NOT_RUN_TSC, suite: NOT_RUN_SUITE, probe: await probe(target, 'before') };
  }
  const version = await run(target.node, ['--version'], { cwd: target.dir });
  const key = createHash('sha256')
    .update(JSON.stringify([version.stdout.trim(), sdk.typecheck, sdk.tests, testTimeoutMs]))
    .digest('hex')
    .slice(0, 12);
  const file = path.join(CACHE_DIR, 'baseline', `${sdk.name}-${sdk.commit.slice(0, 12)}-${key}.json`);
  let cached;
  if (!options.rebaseline && existsSync(file)) {
    log(`${sdk.name}: baseline type-check and tests from ${file} (--rebaseline to run them again)`);
    cached = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    log(`${sdk.name}: type-check before …`);
    const tsc = await typecheck(target);
    const suite = await testSuite(target, 'before');
    cached = { tsc, suite };
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(cached));
  }
  log(`${sdk.name}: probe before …`);
  return { ...cached, probe: await probe(target, 'before') };
}

/** @param {Target} target */
async function runFix({ sdk, dir, env }) {
  const args = [cli, 'fix', '--force', '--json', ...options['fix-arg'], sdk.fixPath];
  const result = await run(process.execPath, args, { cwd: dir, env, timeoutMs: 15 * 60_000 });
  /** @type {{ code: number | null, summary: any, sites: any[], error?: string, stderr: string }} */
  const fix = { code: result.code, summary: null, sites: [], stderr: result.stderr.slice(0, 4000) };
  try {
    const report = JSON.parse(result.stdout);
    fix.summary = report.summary;
    for (const file of report.files) {
      for (const site of file.sites) fix.sites.push({ path: path.relative(dir, path.resolve(dir, file.path)), ...site });
    }
  } catch {
    fix.error = `no JSON report (exit ${result.code}${result.timedOut ? ', timed out' : ''}): ${(result.stderr || result.stdout).slice(0, 2000)}`;
  }
  const diff = await run('git', ['diff'], { cwd: dir });
  const files = await changedFiles(dir);
  // A created file (a helper module) shows in the diff as a whole.
  const created = await Promise.all(
    files.filter((file) => file.created).map((file) => run('git', ['diff', '--no-index', '--', '/dev/null', file.path], { cwd: dir })),
  );
  return { fix, diff: diff.stdout + created.map((c) => c.stdout).join(''), files };
}

/** @param {import('./sdk-suites/sdks.mjs').Sdk} sdk */
async function target(sdk) {
  const dir = await preparePristine(sdk, log);
  const binDir = await nodeBinDir(sdk.node, log);
  // As `npm run`/`pnpm run` do, the checkout's node_modules/.bin comes first (./scripts/lint relies on it).
  const env = sdkEnv(path.join(dir, 'node_modules', '.bin'), sdkEnv(binDir));
  return { sdk, dir, env, node: path.join(binDir, 'node') };
}

/** @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {{ dir: string, commit: string }} drainguard */
async function runSdk(sdk, drainguard) {
  let t;
  try {
    t = await target(sdk);
  } catch (error) {
    fail(String(error?.message ?? error));
  }
  const before = await baseline(t);
  log(`${sdk.name}: drainguard fix --force ${[...options['fix-arg'], sdk.fixPath].join(' ')} …`);
  const { fix, diff, files } = await runFix(t);
  writeFileSync(path.join(outDir, `${sdk.name}.diff`), diff);
  const probeOnly = options['probe-only'];
  log(`${sdk.name}: lint and format checks on ${files.length} changed file(s) …`);
  const checks = probeOnly
    ? null
    : {
        after: await runChecks(sdk.checks, t.dir, files.map((file) => file.path), t.env),
        before: await runChecksBefore(sdk.checks, t.dir, files, t.env),
      };
  log(`${sdk.name}: type-check after …`);
  const tsc = probeOnly ? NOT_RUN_TSC : await typecheck(t);
  const suite = probeOnly ? NOT_RUN_SUITE : await testSuite(t, 'after');
  log(`${sdk.name}: probe after …`);
  const after = { tsc, suite, probe: await probe(t, 'after') };
  const limits = { maxBytes: drainMaxBytes(options['fix-arg']) };
  await remeasureWaits(t, before.probe, after.probe, limits);
  const comparison = compareSuites(before.suite, after.suite);
  comparison.flaky = await rerunNewFailures(t, comparison);
  for (const test of comparison.newFailures) {
    const testRun = sdk.tests.find((r) => r.label === test.run) ?? sdk.tests[0];
    test.site = assertionSite(test, path.join(t.dir, testRun.cwd));
    test.assertsEarlyClose = Boolean(test.site && !test.timedOut && assertsEarlyClose(test.site.source));
  }
  log(`${sdk.name}: the checkout in ${t.dir} keeps the rewrite; the next run resets it`);
  return {
    name: sdk.name,
    repo: sdk.repo,
    commit: sdk.commit,
    node: (await run(t.node, ['--version'], { cwd: t.dir })).stdout.trim(),
    drainguard,
    fixCommand: ['drainguard fix --force --json', ...options['fix-arg'], sdk.fixPath].join(' '),
    limits,
    typecheckCommand: `${sdk.typecheck.cwd === '.' ? '' : `(cd ${sdk.typecheck.cwd}) `}${sdk.typecheck.command.join(' ')}`,
    testCommands: sdk.tests.map((testRun) => `${testRun.cwd === '.' ? '' : `(cd ${testRun.cwd}) `}${testRun.command.join(' ')}`),
    fix,
    diff,
    files: await fileStats(t.dir, files),
    checks,
    newDiagnostics: newDiagnostics(before.tsc.diagnostics, after.tsc.diagnostics),
    before,
    after,
    comparison,
  };
}

async function main() {
  if (!existsSync(path.join(drainguardDir, 'package.json'))) fail(`--drainguard ${drainguardDir} is not a drainguard checkout`);
  if (!options['no-build']) {
    log(`drainguard: npm run build in ${drainguardDir} …`);
    const built = await run('npm', ['run', 'build'], { cwd: drainguardDir, timeoutMs: 10 * 60_000 });
    if (built.code !== 0) fail(`npm run build failed in ${drainguardDir}:\n${built.stdout}\n${built.stderr}`);
  }
  if (!existsSync(cli)) fail(`${cli} does not exist: build drainguard first (npm run build)`);
  if (!existsSync(testingModule)) fail(`${testingModule} (the probe's stream server) does not exist: npm run build in ${REPO}`);
  const drainguard = { dir: drainguardDir, commit: await drainguardCommit() };

  const results = [];
  let worse = false;
  for (const name of wanted) {
    const record = await runSdk(/** @type {import('./sdk-suites/sdks.mjs').Sdk} */ (SDKS.find((s) => s.name === name)), drainguard);
    results.push(record);
    process.stdout.write(`${formatSdkReport(record)}\n\n`);
    writeFileSync(path.join(outDir, 'report.md'), results.map(formatSdkReport).join('\n\n') + '\n');
    writeFileSync(path.join(outDir, 'results.md'), results.map(formatResultsSection).join('\n\n') + '\n');
    worse ||= worseThanBefore(record);
  }
  writeFileSync(
    path.join(outDir, 'summary.json'),
    JSON.stringify(results.map(({ before, after, ...rest }) => ({ ...rest, before: strip(before), after: strip(after) })), null, 2),
  );
  log(`sdk-suites: report and raw results in ${outDir}`);
  process.exitCode = worse ? 1 : 0;
}

/** The per-run record without every passing test (summary.json stays readable). */
function strip(phase) {
  return {
    tsc: { code: phase.tsc.code, diagnostics: phase.tsc.diagnostics },
    suite: { ...phase.suite, tests: phase.suite.tests.filter((test) => test.status !== 'passed') },
    probe: phase.probe,
  };
}

await main();
