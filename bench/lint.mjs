#!/usr/bin/env node
// npm run bench:lint: three comparisons on the corpus SDKs (installed outside the repo, see scripts/corpus-cache.mjs).
//  1. the rule against core no-unreachable in ONE ESLint run with TIMING=all (goal: at most 1.0x);
//  2. `drainguard lint` against plain ESLint with no rules, same files, wall time (goal: at most 0.3x),
//     and proof that the CLI's pre-filter drops no report (same reports with DRAINGUARD_NO_PREFILTER=1);
//  3. `drainguard lint` against oxlint running drainguard's rule (jsPlugins) on the same files, wall
//     time, run alternately (goal: at most 1x), and `drainguard lint` with DRAINGUARD_ENGINE=eslint: the
//     same output through either engine.
// `--record` appends the table, dated, to bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODULES_DIR, ROOT, corpusPackages, installCorpus } from '../scripts/corpus-cache.mjs';

const eslintBin = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
const cli = path.join(ROOT, 'dist/cli.js');
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

const cliMs = [];
const eslintMs = [];
const oxlintMs = [];
const cliCpuMs = [];
const oxlintCpuMs = [];
let cliOut = '';
let oxlintOut = '';
for (let i = 0; i < pairRuns; i++) {
  const ours = timed([cli, 'lint', '--format', 'json', ...packages]);
  const viaOxlint = timed([oxlintBin, '-c', path.join(ROOT, 'bench/oxlintrc.json'), '--format', 'json', ...OXLINT_SAME_FILES, ...packages]);
  cliMs.push(ours.ms);
  oxlintMs.push(viaOxlint.ms);
  cliCpuMs.push(ours.cpuMs);
  oxlintCpuMs.push(viaOxlint.cpuMs);
  cliOut = ours.stdout;
  oxlintOut = viaOxlint.stdout;
  if (i < runs) eslintMs.push(timed([eslintBin, '--config', path.join(ROOT, 'bench/eslint-parse-only.config.mjs'), '--format', 'json', ...packages]).ms);
}
const withoutPrefilter = timed([cli, 'lint', '--format', 'json', ...packages], { DRAINGUARD_NO_PREFILTER: '1' });
const eslintEngine = timed([cli, 'lint', '--format', 'json', ...packages], { DRAINGUARD_ENGINE: 'eslint' });
const files = JSON.parse(cliOut).length;
const oxlintFiles = JSON.parse(oxlintOut).number_of_files;
const same = JSON.stringify(reportsOf(cliOut)) === JSON.stringify(reportsOf(withoutPrefilter.stdout));
const sameEngines = cliOut === eslintEngine.stdout;
const sameAsOxlint = JSON.stringify(linesOf(reportsOf(cliOut))) === JSON.stringify(oxlintReportsOf(oxlintOut));

const ratio1 = rule / unreachable;
const ratio2 = median(cliMs) / median(eslintMs);
const ratio3 = median(cliMs) / median(oxlintMs);
const rows = ['| measure | value | goal |', '|---|---:|---:|'];
for (const order of ORDERS) {
  const { rule: r, unreachable: u } = byOrder[order];
  rows.push(`| ${order}: rule / no-unreachable, TIMING=all (ms) | ${r.toFixed(1)} / ${u.toFixed(1)} = ${(r / u).toFixed(2)}x | |`);
}
rows.push(`| rule / no-unreachable, both orders | ${ratio1.toFixed(2)}x | <= 1.0x |`);
rows.push(`| drainguard lint, wall (ms, ${files} files) | ${median(cliMs).toFixed(0)} | |`);
rows.push(`| plain ESLint, no rules, wall (ms) | ${median(eslintMs).toFixed(0)} | |`);
rows.push(`| drainguard lint / plain ESLint | ${ratio2.toFixed(2)}x | <= 0.3x |`);
rows.push(`| oxlint with drainguard (jsPlugins), wall (ms, ${oxlintFiles} files) | ${median(oxlintMs).toFixed(0)} | |`);
rows.push(`| drainguard lint / oxlint with drainguard (median of ${pairRuns} alternate runs) | ${ratio3.toFixed(2)}x | <= 1x |`);
rows.push(`| each run, drainguard lint / oxlint (ms) | ${cliMs.map((ms, i) => `${ms.toFixed(0)}/${oxlintMs[i].toFixed(0)}`).join(', ')} | |`);
if (GNU_TIME) {
  const [ours, theirs] = [median(cliCpuMs), median(oxlintCpuMs)];
  rows.push(`| CPU time, user + sys with child processes (ms): drainguard lint / oxlint with drainguard | ${ours.toFixed(0)} / ${theirs.toFixed(0)} = ${(ours / theirs).toFixed(2)}x | |`);
}
rmSync(cpuFile, { force: true });
rows.push(`| drainguard lint with DRAINGUARD_ENGINE=eslint, wall (ms) | ${eslintEngine.ms.toFixed(0)} | |`);
rows.push(`| drainguard lint without pre-filter, wall (ms) | ${withoutPrefilter.ms.toFixed(0)} | |`);
rows.push(`| same reports with and without the pre-filter | ${same ? 'yes' : 'NO'} (${reportsOf(cliOut).length} reports) | yes |`);
rows.push(`| same output through oxlint and through ESLint | ${sameEngines ? 'yes' : 'NO'} | yes |`);
rows.push(`| same reports (file:line) as oxlint with drainguard | ${sameAsOxlint ? 'yes' : 'NO'} | yes |`);
console.log(rows.join('\n'));
if (!same || !sameEngines || !sameAsOxlint) process.exitCode = 1;

if (process.argv.includes('--record')) {
  const when = new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z');
  const machine = `Node ${process.versions.node}, ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0].toFixed(1)} at the end`;
  // Into the lint-speed part of the log, after its last run: the file goes on with other benches.
  const resultsFile = path.join(ROOT, 'bench/RESULTS.md');
  const log = readFileSync(resultsFile, 'utf8');
  const nextPart = log.indexOf('\n# ', log.indexOf('\n### bench:lint'));
  const at = nextPart === -1 ? log.length : nextPart;
  const entry = `\n### bench:lint, ${when} (median of ${runs} runs, ${pairRuns} of drainguard lint and oxlint; ${machine})\n\n${rows.join('\n')}\n`;
  writeFileSync(resultsFile, `${log.slice(0, at).replace(/\n*$/, '\n')}${entry}${log.slice(at)}`);
  console.log('\nrecorded in bench/RESULTS.md');
}
