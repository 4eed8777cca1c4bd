#!/usr/bin/env node
// npm run bench:python-lint [-- TREE...]   (default /usr/lib/python3.11 /usr/lib/python3/dist-packages)
//
// Robustness and speed of the Python front end on Python nobody here wrote: `drainguard lint` (the
// built CLI) over the trees, then Debian's pyflakes3 over the same trees, in one run. Prints the
// files linted, the reports and fatal results (each with its position, to be justified by hand), and
// both wall times. Exit 0 unless drainguard crashed on a file or did not finish.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const trees = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/usr/lib/python3.11', '/usr/lib/python3/dist-packages'];

function timed(command, args) {
  const started = process.hrtime.bigint();
  const run = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { run, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const lint = timed(process.execPath, [CLI, 'lint', '--format', 'json', ...trees]);
if (lint.run.status !== 0 && lint.run.status !== 1) {
  process.stderr.write(`drainguard lint exited ${lint.run.status}: ${lint.run.stderr}\n`);
  process.exit(1);
}
const results = JSON.parse(lint.run.stdout);
const reports = [];
const fatal = [];
const crashed = [];
for (const result of results) {
  for (const message of result.messages) {
    const where = `${result.filePath}:${message.line}:${message.column}`;
    if (/drainguard failed on this file/.test(message.message)) crashed.push(`${where} ${message.message}`);
    else if (message.fatal) fatal.push(`${where} ${message.message}`);
    else reports.push(`${where} ${message.message}`);
  }
}
const pyflakes = timed('pyflakes3', trees);
const pyflakesNote = pyflakes.run.error ? `not run (${pyflakes.run.error.message}; apt-get install pyflakes3)` : `${pyflakes.seconds.toFixed(1)} s`;

const lines = [
  `trees: ${trees.join(' ')}`,
  `.py files linted: ${results.filter((result) => result.filePath.endsWith('.py')).length}`,
  `reports: ${reports.length}, fatal (does not parse): ${fatal.length}, crashes: ${crashed.length}`,
  ...reports.map((line) => `  report ${line}`),
  ...fatal.map((line) => `  fatal  ${line}`),
  ...crashed.map((line) => `  crash  ${line}`),
  `drainguard lint: ${lint.seconds.toFixed(1)} s`,
  `pyflakes3:       ${pyflakesNote}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(crashed.length > 0 ? 1 : 0);
