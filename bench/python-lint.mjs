#!/usr/bin/env node
// npm run bench:python-lint [-- --runs N] [-- TREE...]
//
// Speed and robustness of the Python front end on Python nobody here wrote: `drainguard lint --format json` (the built
// CLI) against Debian's pyflakes3 over the same tree, the two run alternately (N times each, default 5; the order flips
// every round), with the median wall time of each, their ratio (goal: at most 0.3x), the CPU time where GNU time is
// installed, and the load average over the runs: on a shared machine wall time follows the other load.
//
// The trees, by default: the Python SDK repositories the goal is measured on (REPOSITORIES below), whole, each cloned
// at its pinned commit from its public GitHub URL into a cache folder outside the repository
// (DRAINGUARD_PYTHON_LINT_CACHE, default ~/.cache/drainguard-bench-python-lint; never committed).
// DRAINGUARD_SDK_MIRRORS=DIR clones DIR/<owner>+<name>/repo instead (a directory of git mirrors, as for
// `npm run corpus:python` and `npm run sdk-suites:python`). Trees named on the command line are linted as they are
// (`/usr/lib/python3.11`).
//
// Prints, per tree, the .py files linted and every report and fatal result (each with its position, to be justified
// by hand), then the table bench/RESULTS.md holds. Exit 0 unless drainguard crashed on a file, did not finish, or gave
// two runs over a tree different output.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutPinned } from '../scripts/pinned-checkout.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const CACHE = process.env.DRAINGUARD_PYTHON_LINT_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'drainguard-bench-python-lint');

/** The repositories of the goal, whole (their tests and examples are Python that users lint too). */
const REPOSITORIES = [
  { name: 'openai-python', repo: 'openai/openai-python', commit: 'e43b422412a9e96c9cc5192c61fffbe2d7e04836' },
  { name: 'anthropic-sdk-python', repo: 'anthropics/anthropic-sdk-python', commit: '009b035305e0724ce108ebd796935f91711fc6e1' },
  { name: 'elevenlabs-python', repo: 'elevenlabs/elevenlabs-python', commit: '54e58995d57669c7807be998f755519dbb05211a' },
];

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt === -1 ? 5 : Number(args[runsAt + 1]);
const named = runsAt === -1 ? args : args.filter((_, index) => index !== runsAt && index !== runsAt + 1);
if (!Number.isInteger(runs) || runs < 1 || named.some((arg) => arg.startsWith('--'))) {
  process.stderr.write('usage: npm run bench:python-lint [-- --runs N] [-- TREE...]\n');
  process.exit(2);
}

const say = (line) => process.stderr.write(`${line}\n`);

// GNU time, where there is one, also gives the CPU time of a run (user + sys, child processes included).
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpuFile = path.join(os.tmpdir(), `drainguard-bench-python-lint-cpu-${process.pid}`);

function timed(command, commandArgs, cwd) {
  const [program, programArgs] = GNU_TIME ? [GNU_TIME, ['-o', cpuFile, '-f', '%U %S', command, ...commandArgs]] : [command, commandArgs];
  const load = os.loadavg()[0];
  const started = process.hrtime.bigint();
  const run = spawnSync(program, programArgs, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = GNU_TIME && existsSync(cpuFile) ? readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').reduce((sum, value) => sum + Number(value), 0) : NaN;
  return { run, seconds, cpu, load };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const pyflakesMissing = spawnSync('pyflakes3', ['--version'], { encoding: 'utf8' }).error;
if (pyflakesMissing) say(`pyflakes3 not run (${pyflakesMissing.message}; apt-get install pyflakes3): drainguard's times only`);

const trees =
  named.length > 0
    ? named.map((tree) => ({ label: tree, dir: path.resolve(tree), source: tree }))
    : REPOSITORIES.map((target) => ({ label: target.name, dir: checkoutPinned(target, CACHE), source: `[${target.repo}](https://github.com/${target.repo}) @ \`${target.commit.slice(0, 12)}\`` }));

let crashedAny = false;
const rows = [];
const loads = [];
for (const tree of trees) {
  const lint = [];
  const pyflakes = [];
  let output;
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? ['drainguard', 'pyflakes'] : ['pyflakes', 'drainguard'];
    for (const which of order) {
      if (which === 'pyflakes' && pyflakesMissing) continue;
      // The tree's own folder, as a user runs it there (and so that git's view of it is the tree's own).
      const measured = which === 'drainguard' ? timed(process.execPath, [CLI, 'lint', '--format', 'json', '.'], tree.dir) : timed('pyflakes3', ['.'], tree.dir);
      loads.push(measured.load);
      if (which === 'pyflakes') {
        pyflakes.push(measured);
        continue;
      }
      if (measured.run.status !== 0 && measured.run.status !== 1) {
        say(`drainguard lint exited ${measured.run.status} on ${tree.label}: ${measured.run.stderr}`);
        process.exit(1);
      }
      if (output !== undefined && measured.run.stdout !== output) {
        say(`drainguard lint gave different output on two runs over ${tree.label}`);
        process.exit(1);
      }
      output = measured.run.stdout;
      lint.push(measured);
    }
  }
  const results = JSON.parse(output);
  const reports = [];
  const fatal = [];
  const crashed = [];
  for (const result of results) {
    for (const message of result.messages) {
      const where = `${path.relative(tree.dir, result.filePath)}:${message.line}:${message.column}`;
      if (/drainguard failed on this file/.test(message.message)) crashed.push(`${where} ${message.message}`);
      else if (message.fatal) fatal.push(`${where} ${message.message}`);
      else reports.push(`${where} ${message.message}`);
    }
  }
  crashedAny ||= crashed.length > 0;
  const files = results.filter((result) => result.filePath.endsWith('.py')).length;
  const lintSeconds = median(lint.map((run) => run.seconds));
  const pyflakesSeconds = pyflakes.length > 0 ? median(pyflakes.map((run) => run.seconds)) : NaN;
  const treeLoads = [...lint, ...pyflakes].map((run) => run.load);
  process.stdout.write(
    [
      `${tree.label} (${tree.dir}): ${files} .py files; reports: ${reports.length}, fatal (does not parse): ${fatal.length}, crashes: ${crashed.length}`,
      ...reports.map((line) => `  report ${line}`),
      ...fatal.map((line) => `  fatal  ${line}`),
      ...crashed.map((line) => `  crash  ${line}`),
      `  drainguard lint: ${lint.map((run) => run.seconds.toFixed(2)).join(' ')} s`,
      `  pyflakes3:       ${pyflakes.map((run) => run.seconds.toFixed(2)).join(' ') || 'not run'} s`,
      '',
    ].join('\n'),
  );
  const cpu = (list) => (GNU_TIME ? `${median(list.map((run) => run.cpu)).toFixed(2)} s` : 'n/a');
  rows.push(
    `| ${tree.source} | ${files.toLocaleString('en-US')} | ${reports.length} | ${fatal.length} | ${crashed.length} | ${lintSeconds.toFixed(2)} s | ${pyflakes.length > 0 ? `${pyflakesSeconds.toFixed(2)} s` : 'not run'} | ${Number.isNaN(pyflakesSeconds) ? 'n/a' : `${(lintSeconds / pyflakesSeconds).toFixed(2)}x`} | ${cpu(lint)} / ${pyflakes.length > 0 ? cpu(pyflakes) : 'n/a'} | ${Math.min(...treeLoads).toFixed(1)}-${Math.max(...treeLoads).toFixed(1)} |`,
  );
}

process.stdout.write(
  [
    `Run: ${new Date().toISOString().slice(0, 16)}Z · ${os.cpus().length} cores · Node ${process.versions.node} · ${runs} alternating runs each · load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
    '',
    '| tree | .py files | reports | fatal | crashes | `drainguard lint` (median) | `pyflakes3` (median) | ratio (goal <= 0.3x) | CPU, drainguard / pyflakes | load average |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n'),
);
process.exit(crashedAny ? 1 : 0);
