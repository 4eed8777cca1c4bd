#!/usr/bin/env node
// npm run bench:lint: three comparisons on the corpus SDKs (installed outside the repo, see scripts/corpus-cache.mjs).
//  1. the rule against core no-unreachable in ONE ESLint run with TIMING=all (goal: at most 1.0x);
//  2. `drainguard lint` against plain ESLint with no rules, same files, wall time (goal: at most 0.3x),
//     and proof that the CLI's pre-filter drops no report (same reports with DRAINGUARD_NO_PREFILTER=1);
//  3. `drainguard lint` against oxlint running drainguard's rule (jsPlugins) on the same files, wall
//     time, run alternately (goal: at most 1x), at three sizes: a small package (replicate, 16 files),
//     a mix of real SDKs (the 7 corpus packages under 300 files each, 774 files) and the whole corpus;
//     each with the same reports as oxlint, and the same output through DRAINGUARD_ENGINE=eslint (ESLint
//     with espree and typescript-eslint's parser) and, on the mix, through DRAINGUARD_ENGINE=native;
//  4. a clean pre-commit-sized run: `drainguard lint` on a 10-file package without reports (ollama; goal
//     under 0.5 s).
// Every wall time comes with the load average, and with the CPU time (user + sys, child processes
// included) where GNU time is installed: on a shared machine wall time depends on the other load.
// `--record` writes the table, dated, into its section of bench/RESULTS.md (`<!-- section:lint -->`), replacing the last run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODULES_DIR, ROOT, corpusPackages, installCorpus } from '../scripts/corpus-cache.mjs';

const eslintBin = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
const cliPath = path.join(ROOT, 'dist/cli.js');
const oxlintBin = path.join(ROOT, 'node_modules/oxlint/bin/oxlint');
// The files drainguard lint walks: oxlint's own walk also takes declaration files and nested node_modules.
const OXLINT_SAME_FILES = ['--ignore-pattern', '**/*.d.ts', '--ignore-pattern', '**/*.d.mts', '--ignore-pattern', '**/*.d.cts', '--ignore-pattern', '**/node_modules/**'];
const runs = Math.max(1, Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3);
// drainguard lint and oxlint take seconds, not minutes, and on a shared 2-core machine one run of
// either can take half as long again as the next: their comparison takes the median of more runs.
const pairRuns = Math.max(runs, 7);

// GNU time, where there is one, also gives the CPU time of the run and its child processes: on a
// shared machine wall time depends on the other load, CPU time much less.
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpuFile = path.join(os.tmpdir(), `drainguard-bench-cpu-${process.pid}`);

function timed(args, env = {}) {
  const [command, commandArgs] = GNU_TIME ? [GNU_TIME, ['-o', cpuFile, '-f', '%U %S', process.execPath, ...args]] : [process.execPath, args];
  const started = process.hrtime.bigint();
  const run = spawnSync(command, commandArgs, { cwd: MODULES_DIR, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0 && run.status !== 1) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  const cpuMs = GNU_TIME ? readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').reduce((sum, seconds) => sum + Number(seconds) * 1000, 0) : NaN;
  return { ms, cpuMs, stdout: run.stdout };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Rows of ESLint's TIMING table: `Rule | Time (ms) | Relative`. */
function timingTable(stdout) {
  const times = new Map();
  for (const line of stdout.split('\n')) {
    const match = /^(\S+)\s*\|\s*([\d.]+)\s*\|/.exec(line);
    if (match) times.set(match[1], Number(match[2]));
  }
  return times;
}

function reportsOf(stdout) {
  return JSON.parse(stdout)
    .flatMap((result) => result.messages.map((message) => `${result.filePath}:${message.line}:${message.column}:${message.ruleId}`))
    .sort();
}

installCorpus();
const packages = corpusPackages();
console.log(`bench:lint on ${packages.length} corpus SDKs in ${MODULES_DIR}, median of ${runs} runs (of each rule order)\n`);

// Each order is run `runs` times: the rule that runs first on a file pays for ESLint's first look-ups
// on that file's rule context, so neither rule gets that cost only.
const ORDERS = ['rule-first', 'unreachable-first'];
const timings = Object.fromEntries(ORDERS.map((order) => [order, { rule: [], unreachable: [] }]));
for (let i = 0; i < runs; i++) {
  for (const order of ORDERS) {
    const { stdout } = timed(
      [eslintBin, '--config', path.join(ROOT, 'bench/eslint-timing.config.mjs'), '--format', 'json', '--output-file', '/dev/null', ...packages],
      { TIMING: 'all', DRAINGUARD_BENCH_ORDER: order },
    );
    const table = timingTable(stdout);
    timings[order].rule.push(table.get('drainguard/no-early-stream-close') ?? NaN);
    timings[order].unreachable.push(table.get('no-unreachable') ?? NaN);
  }
}
const byOrder = Object.fromEntries(ORDERS.map((order) => [order, { rule: median(timings[order].rule), unreachable: median(timings[order].unreachable) }]));
const rule = (byOrder['rule-first'].rule + byOrder['unreachable-first'].rule) / 2;
const unreachable = (byOrder['rule-first'].unreachable + byOrder['unreachable-first'].unreachable) / 2;

/** oxlint's JSON diagnostics as `path:line:ruleId` (oxlint's columns count bytes; the lines compare). */
function oxlintReportsOf(stdout) {
  return JSON.parse(stdout)
    .diagnostics.map((d) => `${path.resolve(MODULES_DIR, d.filename)}:${d.labels[0].span.line}:${d.code.replace(/^([^(]+)\((.+)\)$/, '$1/$2')}`)
    .sort();
}
const linesOf = (reports) => reports.map((report) => report.replace(/:(\d+):\d+:/, ':$1:'));

const loadAverage = () => os.loadavg()[0].toFixed(1);
const SMALL = ['replicate'];
const MIX = ['@s2-dev/streamstore', '@modelcontextprotocol/sdk', '@ai-sdk/provider-utils', '@connectrpc/connect-web', 'ollama', 'replicate', '@huggingface/inference'];
const PRE_COMMIT = ['ollama'];

/** `drainguard lint` and oxlint with drainguard, run alternately on the same files: medians, each pair, the same reports. */
function againstOxlint(label, paths, pairs) {
  const cli = { wall: [], cpu: [] };
  const ox = { wall: [], cpu: [] };
  const loadBefore = loadAverage();
  let cliOut = '';
  let oxlintOut = '';
  for (let i = 0; i < pairs; i++) {
    const ours = timed([cliPath, 'lint', '--format', 'json', ...paths]);
    const viaOxlint = timed([oxlintBin, '-c', path.join(ROOT, 'bench/oxlintrc.json'), '--format', 'json', ...OXLINT_SAME_FILES, ...paths]);
    cli.wall.push(ours.ms);
    cli.cpu.push(ours.cpuMs);
    ox.wall.push(viaOxlint.ms);
    ox.cpu.push(viaOxlint.cpuMs);
    cliOut = ours.stdout;
    oxlintOut = viaOxlint.stdout;
  }
  const loadAfter = loadAverage();
  const files = JSON.parse(cliOut).length;
  const sameAsOxlint = JSON.stringify(linesOf(reportsOf(cliOut))) === JSON.stringify(oxlintReportsOf(oxlintOut));
  const rows = [
    `| ${label}: drainguard lint / oxlint with drainguard, wall (ms, median of ${pairs} alternate runs, ${files} files, load ${loadBefore} -> ${loadAfter}) | ${median(cli.wall).toFixed(0)} / ${median(ox.wall).toFixed(0)} = ${(median(cli.wall) / median(ox.wall)).toFixed(2)}x | <= 1x |`,
    `| ${label}: each run, drainguard lint / oxlint (ms) | ${cli.wall.map((ms, i) => `${ms.toFixed(0)}/${ox.wall[i].toFixed(0)}`).join(', ')} | |`,
  ];
  if (GNU_TIME) {
    rows.push(`| ${label}: CPU time, user + sys with child processes (ms) | ${median(cli.cpu).toFixed(0)} / ${median(ox.cpu).toFixed(0)} = ${(median(cli.cpu) / median(ox.cpu)).toFixed(2)}x | |`);
  }
  rows.push(`| ${label}: same reports (file:line) as oxlint with drainguard | ${sameAsOxlint ? 'yes' : 'NO'} (${reportsOf(cliOut).length} reports) | yes |`);
  return { rows, ok: sameAsOxlint, cliOut, wall: median(cli.wall) };
}

/** The same output through the given engines as through the default one. */
function sameThrough(label, paths, engines, expected) {
  const same = engines.every((engine) => timed([cliPath, 'lint', '--format', 'json', ...paths], { DRAINGUARD_ENGINE: engine }).stdout === expected);
  return { rows: [`| ${label}: same output through DRAINGUARD_ENGINE=${engines.join(', ')} | ${same ? 'yes' : 'NO'} | yes |`], ok: same };
}

const eslintMs = [];
for (let i = 0; i < runs; i++) eslintMs.push(timed([eslintBin, '--config', path.join(ROOT, 'bench/eslint-parse-only.config.mjs'), '--format', 'json', ...packages]).ms);
const small = againstOxlint('small package', SMALL, pairRuns);
const mix = againstOxlint('SDK mix', MIX, pairRuns);
const corpus = againstOxlint('corpus', packages, pairRuns);
const mixEngines = sameThrough('SDK mix', MIX, ['native', 'eslint'], mix.cliOut);
const corpusEngines = sameThrough('corpus', packages, ['eslint'], corpus.cliOut);
const withoutPrefilter = timed([cliPath, 'lint', '--format', 'json', ...packages], { DRAINGUARD_NO_PREFILTER: '1' });
const same = JSON.stringify(reportsOf(corpus.cliOut)) === JSON.stringify(reportsOf(withoutPrefilter.stdout));
const preCommit = [];
const preCommitCpu = [];
// Node's own start, alternately, in the same environment: a floor no CLI goes under (a CA bundle named by
// NODE_EXTRA_CA_CERTS, for one, is read at every start).
const nodeStart = [];
for (let i = 0; i < pairRuns; i++) {
  const run = timed([cliPath, 'lint', ...PRE_COMMIT]);
  preCommit.push(run.ms);
  preCommitCpu.push(run.cpuMs);
  nodeStart.push(timed(['-e', '0']).ms);
}

const ratio1 = rule / unreachable;
const ratio2 = corpus.wall / median(eslintMs);
const rows = ['| measure | value | goal |', '|---|---:|---:|'];
for (const order of ORDERS) {
  const { rule: r, unreachable: u } = byOrder[order];
  rows.push(`| ${order}: rule / no-unreachable, TIMING=all (ms) | ${r.toFixed(1)} / ${u.toFixed(1)} = ${(r / u).toFixed(2)}x | |`);
}
rows.push(`| rule / no-unreachable, both orders | ${ratio1.toFixed(2)}x | <= 1.0x |`);
rows.push(`| plain ESLint, no rules, corpus, wall (ms) | ${median(eslintMs).toFixed(0)} | |`);
rows.push(`| drainguard lint / plain ESLint, corpus | ${ratio2.toFixed(2)}x | <= 0.3x |`);
rows.push(...small.rows, ...mix.rows, ...mixEngines.rows, ...corpus.rows, ...corpusEngines.rows);
rows.push(`| corpus: drainguard lint without pre-filter, wall (ms) | ${withoutPrefilter.ms.toFixed(0)} | |`);
rows.push(`| corpus: same reports with and without the pre-filter | ${same ? 'yes' : 'NO'} | yes |`);
rows.push(`| clean 10-file package (${PRE_COMMIT.join(' ')}): drainguard lint, wall (ms, median of ${pairRuns}; CPU ${median(preCommitCpu).toFixed(0)} ms) | ${median(preCommit).toFixed(0)} | < 500 |`);
rows.push(`| of which Node's own start, \`node -e 0\` run alternately (ms, median; NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'}) | ${median(nodeStart).toFixed(0)} | |`);
rmSync(cpuFile, { force: true });
console.log(rows.join('\n'));
if (!same || !small.ok || !mix.ok || !corpus.ok || !mixEngines.ok || !corpusEngines.ok) process.exitCode = 1;

if (process.argv.includes('--record')) {
  const when = new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z').replace('T', ' ');
  const machine = `${os.availableParallelism()} cores · Node ${process.versions.node} · load average ${os.loadavg()[0].toFixed(1)} at the end`;
  replaceResultsSection('lint', `**Run:** ${when} · ${machine} · median of ${runs} runs, ${pairRuns} of drainguard lint and oxlint at each size\n\n${rows.join('\n')}`);
  console.log('\nrecorded in bench/RESULTS.md (section lint)');
}

/** Replaces what stands between `<!-- section:NAME -->` and `<!-- /section:NAME -->` in bench/RESULTS.md: the file holds the latest run, git the earlier ones. */
function replaceResultsSection(name, body) {
  const resultsFile = path.join(ROOT, 'bench/RESULTS.md');
  const text = readFileSync(resultsFile, 'utf8');
  const [open, close] = [`<!-- section:${name} -->`, `<!-- /section:${name} -->`];
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start === -1 || end < start) throw new Error(`bench/RESULTS.md has no ${open} ... ${close}`);
  writeFileSync(resultsFile, `${text.slice(0, start + open.length)}\n${body}\n${text.slice(end)}`);
}
