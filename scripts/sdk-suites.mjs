#!/usr/bin/env node
// npm run sdk-suites: the proof that `drainguard fix` can be merged blind on real SDKs. For each SDK
// of scripts/sdk-suites/sdks.mjs (checked out at a pinned commit in a cache folder outside this
// repository, never committed): its own type-check and test suite before the fix (the baseline,
// cached per commit), `drainguard fix --force src/`, the same after it (each test bounded, so a hang
// is a failure), a real-server probe of one streaming call before and after, and a report: the fix's
// sites, new type errors, new failing tests with their assertions, hangs, probe timings and
// connection counts. A new failure whose failing line asserts that a cancel/abort spy was called
// checks the early close itself (a maintainer updates it) and is listed as such. Exit 0 when nothing
// else got worse (type errors, hangs, other new failures, a failed probe), 1 when something did,
// 2 on a setup error.
//
//   node scripts/sdk-suites.mjs [--drainguard DIR] [--no-build] [--sdk NAME]... [--out DIR]
//        [--test-timeout-ms N] [--suite-timeout-ms N] [--hold-ms N] [--calls N] [--rebaseline]
//        [--probe-only]  (fix and probe, without type-check and test suites)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSdk } from './sdk-suites/bundle.mjs';
import { preparePristine } from './sdk-suites/checkout.mjs';
import { formatSdkReport } from './sdk-suites/report.mjs';
import { assertionSite, assertsEarlyClose, compareSuites, newDiagnostics, parseTscDiagnostics, readVitestReport } from './sdk-suites/results.mjs';
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
    'hold-ms': { type: 'string', default: '4000' },
    calls: { type: 'string', default: '10' },
    rebaseline: { type: 'boolean', default: false },
    'probe-only': { type: 'boolean', default: false },
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
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 15).join('\n').replace(/^\/\/ ?/gm, '') + '\n');
  process.exit(0);
}

const log = (line = '') => process.stderr.write(`${line}\n`);
const drainguardDir = path.resolve(options.drainguard);
const cli = path.join(drainguardDir, 'dist/cli.js');
const testTimeoutMs = positive('test-timeout-ms');
const suiteTimeoutMs = positive('suite-timeout-ms');
const holdMs = positive('hold-ms');
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

/** @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {string} dir */
async function typecheck(sdk, dir) {
  const [command, ...args] = sdk.typecheck;
  const result = await run(command, args, { cwd: dir, timeoutMs: 15 * 60_000 });
  return { code: result.code, ms: result.ms, diagnostics: parseTscDiagnostics(result.stdout + result.stderr), output: (result.stdout + result.stderr).slice(0, 20_000) };
}

/**
 * @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {string} dir @param {string} label
 * @param {string[]} [files] only these test files (default: the whole suite)
 */
async function testSuite(sdk, dir, label, files = []) {
  const reportFile = path.join(outDir, `${sdk.name}-${label}-vitest.json`);
  const cwd = path.join(dir, sdk.tests.cwd);
  const [command, ...args] = sdk.tests.command;
  const flags = ['--reporter=json', `--outputFile=${reportFile}`, `--testTimeout=${testTimeoutMs}`, `--hookTimeout=${testTimeoutMs}`];
  log(`${sdk.name}: tests ${label} (${[command, ...args].join(' ')}) …`);
  // CI=true: vitest neither writes nor rewrites snapshot files in the checkout.
  const result = await run(command, [...args, ...flags, ...files], { cwd, env: { ...process.env, CI: 'true' }, timeoutMs: suiteTimeoutMs });
  writeFileSync(path.join(outDir, `${sdk.name}-${label}-vitest.log`), result.stdout + result.stderr);
  return readVitestReport(reportFile, cwd, { killed: result.timedOut, ms: result.ms, testTimeoutMs });
}

/** @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {string} dir @param {string} label */
async function probe(sdk, dir, label) {
  const bundle = path.join(CACHE_DIR, 'probe', `${sdk.name}-${label}.mjs`);
  try {
    await bundleSdk(sdk, dir, bundle);
  } catch (error) {
    return { error: `bundling ${sdk.entry} failed: ${String(error?.message ?? error).split('\n')[0]}` };
  }
  const boundMs = holdMs * 2 + calls * 5000 + 30_000;
  const result = await run(process.execPath, [path.join(HERE, 'sdk-suites/probe.mjs'), sdk.name, bundle, String(holdMs), String(calls)], { cwd: dir, timeoutMs: boundMs });
  if (result.timedOut) return { error: `the probe did not finish within ${boundMs} ms (hang)` };
  const line = result.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    return { error: `the probe exited ${result.code}: ${(result.stderr || result.stdout).slice(0, 2000)}` };
  }
}

/**
 * Runs the files of the new failures once more: a test that passes then is reported as flaky (the
 * openai-node suite has some on Node 20) and leaves the list of new failures.
 * @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {string} dir
 * @param {ReturnType<typeof compareSuites>} comparison
 */
async function rerunNewFailures(sdk, dir, comparison) {
  if (comparison.newFailures.length === 0) return [];
  const files = [...new Set(comparison.newFailures.map((test) => test.key.split(/ > | \(the file did not run\)/)[0]))];
  const rerun = await testSuite(sdk, dir, 'after-rerun', files);
  const passed = new Set(rerun.tests.filter((test) => test.status === 'passed').map((test) => test.key));
  const flaky = comparison.newFailures.filter((test) => passed.has(test.key));
  comparison.newFailures = comparison.newFailures.filter((test) => !passed.has(test.key));
  return flaky;
}

/**
 * The baseline type-check and suite do not depend on drainguard: they are cached per SDK commit,
 * Node version and test timeout. The probe of the pristine source is cheap and always runs.
 * @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {string} dir
 */
async function baseline(sdk, dir) {
  if (options['probe-only']) {
    log(`${sdk.name}: probe before …`);
    return { tsc: NOT_RUN_TSC, suite: NOT_RUN_SUITE, probe: await probe(sdk, dir, 'before') };
  }
  const file = path.join(CACHE_DIR, 'baseline', `${sdk.name}-${sdk.commit}-node${process.versions.node}-t${testTimeoutMs}.json`);
  let cached;
  if (!options.rebaseline && existsSync(file)) {
    log(`${sdk.name}: baseline type-check and tests from ${file} (--rebaseline to run them again)`);
    cached = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    log(`${sdk.name}: type-check before …`);
    const tsc = await typecheck(sdk, dir);
    const suite = await testSuite(sdk, dir, 'before');
    cached = { tsc, suite };
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(cached));
  }
  log(`${sdk.name}: probe before …`);
  return { ...cached, probe: await probe(sdk, dir, 'before') };
}

/** @param {import('./sdk-suites/sdks.mjs').Sdk} sdk @param {string} dir */
async function runFix(sdk, dir) {
  const result = await run(process.execPath, [cli, 'fix', '--force', '--json', sdk.fixPath], { cwd: dir, timeoutMs: 15 * 60_000 });
  /** @type {{ code: number | null, summary: any, sites: any[], error?: string }} */
  const fix = { code: result.code, summary: null, sites: [] };
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
  return { fix, diff: diff.stdout };
}

async function main() {
  if (!existsSync(path.join(drainguardDir, 'package.json'))) fail(`--drainguard ${drainguardDir} is not a drainguard checkout`);
  if (!options['no-build']) {
    log(`drainguard: npm run build in ${drainguardDir} …`);
    const built = await run('npm', ['run', 'build'], { cwd: drainguardDir, timeoutMs: 10 * 60_000 });
    if (built.code !== 0) fail(`npm run build failed in ${drainguardDir}:\n${built.stdout}\n${built.stderr}`);
  }
  if (!existsSync(cli)) fail(`${cli} does not exist: build drainguard first (npm run build)`);
  const drainguard = { dir: drainguardDir, commit: await drainguardCommit() };

  const results = [];
  let worse = false;
  for (const name of wanted) {
    const sdk = /** @type {import('./sdk-suites/sdks.mjs').Sdk} */ (SDKS.find((s) => s.name === name));
    let dir;
    try {
      dir = await preparePristine(sdk, log);
    } catch (error) {
      fail(String(error?.message ?? error));
    }
    const before = await baseline(sdk, dir);
    log(`${sdk.name}: drainguard fix --force ${sdk.fixPath} …`);
    const { fix, diff } = await runFix(sdk, dir);
    writeFileSync(path.join(outDir, `${sdk.name}.diff`), diff);
    log(`${sdk.name}: type-check after …`);
    const tsc = options['probe-only'] ? NOT_RUN_TSC : await typecheck(sdk, dir);
    const suite = options['probe-only'] ? NOT_RUN_SUITE : await testSuite(sdk, dir, 'after');
    log(`${sdk.name}: probe after …`);
    const after = { tsc, suite, probe: await probe(sdk, dir, 'after') };
    const comparison = compareSuites(before.suite, after.suite);
    comparison.flaky = await rerunNewFailures(sdk, dir, comparison);
    for (const test of comparison.newFailures) {
      test.site = assertionSite(test, path.join(dir, sdk.tests.cwd));
      test.assertsEarlyClose = Boolean(test.site && !test.timedOut && assertsEarlyClose(test.site.source));
    }
    const record = {
      name: sdk.name,
      repo: sdk.repo,
      commit: sdk.commit,
      drainguard,
      typecheckCommand: sdk.typecheck.join(' '),
      fix,
      diff,
      newDiagnostics: newDiagnostics(before.tsc.diagnostics, after.tsc.diagnostics),
      before,
      after,
      comparison,
    };
    results.push(record);
    const text = formatSdkReport(record);
    process.stdout.write(`${text}\n\n`);
    worse ||=
      Boolean(fix.error) ||
      record.newDiagnostics.length > 0 ||
      comparison.newFailures.some((test) => !test.assertsEarlyClose) ||
      comparison.timedOut.length > 0 ||
      after.suite.killed ||
      Boolean(after.probe?.error);
    log(`${sdk.name}: the checkout in ${dir} keeps the rewrite; the next run resets it`);
  }
  writeFileSync(path.join(outDir, 'report.md'), results.map(formatSdkReport).join('\n\n') + '\n');
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
