#!/usr/bin/env node
// npm run bench:robustness: `drainguard lint` over a generated tree that no real repository is this hostile to at once,
// through each engine, with the time and peak memory of each run (issue 36). The tree (in the OS temp folder, removed
// afterwards unless --keep) holds 50,000 small modules in 500 packages (early closes in JavaScript, TypeScript, CRLF,
// a byte order mark and Python; clean files the pre-filter keeps; files it rules out), three 10 MB bundles (TypeScript's
// own typescript.js padded to 10 MB, an early close at the end), an 18 MB file over the size limit, files in latin-1,
// Windows-1252 Python, UTF-16 LE and BE, a binary file, a file that does not parse, empty files, names with spaces,
// accents and a newline, a directory 100 deep, a directory named like a file, a FIFO, and symbolic link loops (a
// directory linked to itself, two files linked to each other, a file linked to itself, also named on the command line).
//
// Each engine must end the run (exit 1), report every early close at its place, report each file it cannot check with
// its reason, and print the same JSON as the others. Peak memory is getrusage's maxrss of each process (bench/max-rss.cjs):
// the CLI's own, and the largest of the oxlint processes it started.
//
//   node bench/robustness.mjs [--files 50000] [--engines native,eslint,oxlint,auto] [--record] [--keep]
//
// `--record` writes the table, dated, into its section of bench/RESULTS.md (`<!-- section:robustness -->`), replacing the
// last run. test/integration/robustness.test.ts runs it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(ROOT, 'dist/cli.js');
const RULE_ID = 'drainguard/no-early-stream-close';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const FILES = Number(option('files', '50000'));
const ENGINES = option('engines', 'native,eslint,oxlint,auto').split(',');
const PACKAGE_FILES = 100;

const EARLY_JS = `export async function readUntilDone(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value);
    if (text.includes('[DONE]')) {
      await reader.cancel();
      break;
    }
  }
}
`;
/** Where the rule reports EARLY_JS: `reader.cancel()`, line 9, columns 13-28. */
const EARLY_AT = { line: 9, column: 13 };
const CLEAN_JS = `export async function readAll(res) {
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done } = await reader.read();
      if (done) return;
    }
  } catch (error) {
    await reader.cancel(error);
    throw error;
  }
}
`;
const PLAIN_JS = (i) => `export function add${i}(a, b) {\n  return a + b + ${i};\n}\n`;
const EARLY_PY = readFileSync(path.join(ROOT, 'fixtures/python/02-aconnect-sse-break/input.py'), 'utf8');
const EARLY_PY_AT = { line: 12, column: 23 };
const CLEAN_PY = readFileSync(path.join(ROOT, 'fixtures/python/02-aconnect-sse-break/output.py'), 'utf8');

/** The tree, and what a run over it must report. */
function generate(dir) {
  const expected = { reports: new Map(), notChecked: new Map(), parseErrors: new Set(), files: 0 };
  const write = (relative, content, expect) => {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    expected.files++;
    if (expect?.report) expected.reports.set(relative, expect.report);
    if (expect?.notChecked) expected.notChecked.set(relative, expect.notChecked);
    if (expect?.parseError) expected.parseErrors.add(relative);
  };
  const early = { report: EARLY_AT };

  // 50,000 modules in packages of 100: 6 early closes, 8 clean files the pre-filter keeps, 86 it rules out (the
  // corpus's proportion: 194 of 20,027 files parsed).
  const packages = Math.ceil(FILES / PACKAGE_FILES);
  for (let p = 0; p < packages; p++) {
    const pkg = `packages/p${p}`;
    write(`${pkg}/src/early-a.js`, EARLY_JS, early);
    write(`${pkg}/src/early-b.js`, EARLY_JS, early);
    write(`${pkg}/src/early.ts`, EARLY_JS, early);
    write(`${pkg}/src/early-crlf.mjs`, EARLY_JS.replace(/\n/g, '\r\n'), early);
    write(`${pkg}/src/early-bom.js`, `\uFEFF${EARLY_JS}`, early);
    write(`${pkg}/py/transport.py`, EARLY_PY, { report: EARLY_PY_AT });
    for (let i = 0; i < 6; i++) write(`${pkg}/src/clean${i}.${['js', 'ts', 'mts', 'tsx'][i % 4]}`, CLEAN_JS);
    for (let i = 0; i < 2; i++) write(`${pkg}/py/clean${i}.py`, CLEAN_PY);
    for (let i = 0; i < 85; i++) write(`${pkg}/lib/plain${i}.${['js', 'ts', 'cjs', 'jsx'][i % 4]}`, PLAIN_JS(i));
    write(`${pkg}/index.js`, PLAIN_JS(p));
  }

  // Three 10 MB bundles: TypeScript's compiler (9 MB of real code) padded with clean code, an early close at the end.
  const typescript = readFileSync(path.join(ROOT, 'node_modules/typescript/lib/typescript.js'), 'utf8');
  let bundle = typescript.endsWith('\n') ? typescript : `${typescript}\n`;
  for (let i = 0; bundle.length < 10 * 1024 * 1024 - EARLY_JS.length; i++) bundle += CLEAN_JS.replace('readAll', `readAll${i}`);
  const bundleLines = bundle.split('\n').length - 1;
  for (let i = 1; i <= 3; i++) write(`dist/bundle-${i}.js`, `${bundle}${EARLY_JS}`, { report: { line: bundleLines + EARLY_AT.line, column: EARLY_AT.column } });
  // Over the 16 MiB limit: not read at all.
  write('dist/huge.js', `${typescript}\n${typescript}\n${EARLY_JS}`, { notChecked: /^File not checked: \d+ MiB, over the 16 MiB limit/ });

  // Encodings.
  write('special/latin1-early.js', Buffer.from(`// © Société\n${EARLY_JS}`, 'latin1'), { notChecked: /^File not checked: not UTF-8 text \(byte 0xA9 is not valid UTF-8\)$/ });
  write('special/latin1-plain.js', Buffer.from(`// © Société\n${PLAIN_JS(0)}`, 'latin1'));
  write('special/cp1252.py', Buffer.from(`# -*- coding: cp1252 -*-\n# d\xe9j\xe0 vu\n${EARLY_PY}`, 'latin1'), { notChecked: /^File not checked: not UTF-8 text \(byte 0xE9/ });
  write('special/utf16le.js', Buffer.from(`\uFEFF${EARLY_JS}`, 'utf16le'), { notChecked: /^File not checked: UTF-16 text \(byte order mark FF FE\)/ });
  write('special/utf16be.ts', Buffer.from(`\uFEFF${EARLY_JS}`, 'utf16le').swap16(), { notChecked: /^File not checked: UTF-16 text \(byte order mark FE FF\)/ });
  write('special/binary.js', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from(EARLY_JS)]), {
    notChecked: /^File not checked: a binary file/,
  });
  write('special/image.js', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
  write('special/unparsable.js', 'export async function f(res) {\n  await res.body.cancel(;\n}\n', { parseError: true });
  write('special/empty.js', '');
  write('special/bom-only.ts', '\uFEFF');

  // Names and places.
  write('special/with space.js', EARLY_JS, early);
  write('special/ünïcödé.ts', EARLY_JS, early);
  write('special/new\nline.js', EARLY_JS, early);
  write(`special/${Array.from({ length: 100 }, (_, i) => `d${i}`).join('/')}/deep.js`, EARLY_JS, early);
  write('special/dir.js/inside.js', EARLY_JS, early);
  execFileSync('mkfifo', [path.join(dir, 'special/fifo.js')]);

  // Symbolic link loops: never followed by the walk; the one named on the command line cannot be read.
  symlinkSync('.', path.join(dir, 'special/loop-dir'));
  symlinkSync('b.js', path.join(dir, 'special/a.js'));
  symlinkSync('a.js', path.join(dir, 'special/b.js'));
  symlinkSync('self.js', path.join(dir, 'special/self.js'));
  expected.files++;
  expected.notChecked.set('special/self.js', /^Cannot read file: ELOOP: too many symbolic links encountered/);
  return expected;
}

/** `drainguard lint --format <format> . special/self.js` in dir through `engine`: exit code, output, wall time, peak memory. */
function lint(dir, engine, format = 'json') {
  const rssLog = path.join(os.tmpdir(), `drainguard-rss-${process.pid}-${engine}.jsonl`);
  rmSync(rssLog, { force: true });
  const env = { ...process.env, NODE_OPTIONS: `--require ${path.join(ROOT, 'bench/max-rss.cjs')}`, DRAINGUARD_RSS_LOG: rssLog };
  if (engine === 'auto') delete env.DRAINGUARD_ENGINE;
  else env.DRAINGUARD_ENGINE = engine;
  delete env.DRAINGUARD_MAX_FILE_BYTES;
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [CLI, 'lint', '--format', format, '.', 'special/self.js'], { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const records = existsSync(rssLog) ? readFileSync(rssLog, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
  rmSync(rssLog, { force: true });
  const cli = records.find((record) => record.script === CLI);
  const children = records.filter((record) => record !== cli);
  return {
    engine,
    code: run.status,
    signal: run.signal,
    stdout: run.stdout,
    stderr: run.stderr,
    ms,
    cliRssMb: cli ? cli.maxRssKb / 1024 : NaN,
    oxlintProcesses: children.length,
    oxlintRssMb: children.length > 0 ? Math.max(...children.map((record) => record.maxRssKb)) / 1024 : 0,
  };
}

/** What is wrong with a run's JSON against the expectations (empty when nothing is). */
function problems(run, expected, dir) {
  if (run.code !== 1) return [`exit ${run.code}${run.signal ? ` (${run.signal})` : ''}: ${run.stderr.slice(-2000)}`];
  let results;
  try {
    results = JSON.parse(run.stdout);
  } catch (error) {
    return [`stdout is not JSON: ${error.message}`];
  }
  const found = [];
  if (results.length !== expected.files) found.push(`${results.length} results for ${expected.files} files`);
  let reports = 0;
  for (const result of results) {
    const relative = path.relative(dir, result.filePath);
    const report = expected.reports.get(relative);
    const notChecked = expected.notChecked.get(relative);
    const messages = result.messages.map(({ ruleId, line, column, fatal, message }) => ({ ruleId, line, column, fatal, message }));
    if (report) {
      reports++;
      if (messages.length !== 1 || messages[0].ruleId !== RULE_ID || messages[0].line !== report.line || messages[0].column !== report.column) {
        found.push(`${relative}: expected ${RULE_ID} at ${report.line}:${report.column}, got ${JSON.stringify(messages)}`);
      }
    } else if (notChecked) {
      if (messages.length !== 1 || !messages[0].fatal || !notChecked.test(messages[0].message)) found.push(`${relative}: expected ${notChecked}, got ${JSON.stringify(messages)}`);
    } else if (expected.parseErrors.has(relative)) {
      if (messages.length !== 1 || !messages[0].fatal || !messages[0].message.startsWith('Parsing error:')) found.push(`${relative}: expected a parse error, got ${JSON.stringify(messages)}`);
    } else if (messages.length > 0) {
      found.push(`${relative}: expected nothing, got ${JSON.stringify(messages)}`);
    }
  }
  if (reports !== expected.reports.size) found.push(`${reports} of ${expected.reports.size} files with an early close reported`);
  return found;
}

const mb = (value) => (Number.isNaN(value) ? '?' : value.toFixed(0));

export function sweep() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'drainguard-robustness-'));
  try {
    const generating = process.hrtime.bigint();
    const expected = generate(dir);
    const generatedMs = Number(process.hrtime.bigint() - generating) / 1e6;
    console.log(`tree: ${expected.files} files (${expected.reports.size} with an early close, ${expected.notChecked.size} not checkable, ${expected.parseErrors.size} unparsable) in ${(generatedMs / 1000).toFixed(1)} s at ${dir}`);
    const runs = [];
    for (const engine of ENGINES) {
      const run = lint(dir, engine);
      run.problems = problems(run, expected, dir);
      runs.push(run);
      console.log(`${engine}: exit ${run.code}, ${(run.ms / 1000).toFixed(1)} s, CLI ${mb(run.cliRssMb)} MB, oxlint processes ${run.oxlintProcesses} (largest ${mb(run.oxlintRssMb)} MB)${run.problems.length > 0 ? `\n  ${run.problems.slice(0, 20).join('\n  ')}` : ''}`);
    }
    const [first, ...others] = runs;
    const differing = others.filter((run) => run.stdout !== first.stdout).map((run) => run.engine);
    if (differing.length > 0) console.log(`JSON differs from ${first.engine}'s: ${differing.join(', ')}`);
    // The SARIF the GitHub Actions recipe uploads, on engine auto: the files not checked as notifications.
    const sarif = lint(dir, 'auto', 'sarif');
    let sarifProblem = '';
    try {
      const [sarifRun] = JSON.parse(sarif.stdout).runs;
      const notifications = sarifRun.invocations?.[0]?.toolExecutionNotifications ?? [];
      if (sarif.code !== 1 || notifications.length !== expected.notChecked.size || sarifRun.results.length !== expected.reports.size + expected.parseErrors.size) {
        sarifProblem = `SARIF: exit ${sarif.code}, ${notifications.length} notifications, ${sarifRun.results.length} results`;
      }
    } catch (error) {
      sarifProblem = `SARIF: exit ${sarif.code}, not JSON: ${error.message}`;
    }
    if (sarifProblem) console.log(sarifProblem);
    const ok = runs.every((run) => run.problems.length === 0) && differing.length === 0 && !sarifProblem;
    const rows = [
      '| engine | files | wall (s) | peak memory, drainguard (MB) | oxlint processes, the largest (MB) | result |',
      '| --- | --- | --- | --- | --- | --- |',
      ...runs.map(
        (run) =>
          `| ${run.engine} | ${expected.files} | ${(run.ms / 1000).toFixed(1)} | ${mb(run.cliRssMb)} | ${run.oxlintProcesses > 0 ? `${run.oxlintProcesses}, ${mb(run.oxlintRssMb)}` : 'none'} | ${run.problems.length === 0 ? `exit 1; ${expected.reports.size} early closes, ${expected.notChecked.size} files not checked, ${expected.parseErrors.size} parse error${differing.includes(run.engine) ? '; JSON DIFFERS' : ''}` : `FAILED: ${run.problems[0]}`} |`,
      ),
      `| auto, \`--format sarif\` | ${expected.files} | ${(sarif.ms / 1000).toFixed(1)} | ${mb(sarif.cliRssMb)} | ${sarif.oxlintProcesses > 0 ? `${sarif.oxlintProcesses}, ${mb(sarif.oxlintRssMb)}` : 'none'} | ${sarifProblem || `exit 1; ${expected.notChecked.size} notifications`} |`,
    ];
    console.log(rows.join('\n'));
    return { ok, rows, expected };
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ok, rows } = sweep();
  if (!ok) process.exitCode = 1;
  if (process.argv.includes('--record')) {
    const when = new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z').replace('T', ' ');
    const machine = `${os.availableParallelism()} cores · Node ${process.versions.node} · load average ${os.loadavg()[0].toFixed(1)} at the end`;
    replaceResultsSection('robustness', `**Run:** ${when} · ${machine}\n\n${rows.join('\n')}`);
    console.log('\nrecorded in bench/RESULTS.md (section robustness)');
  }
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
