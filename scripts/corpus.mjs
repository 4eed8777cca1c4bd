#!/usr/bin/env node
// npm run corpus: installs the pinned SDKs of ../shared/corpus into a cache folder outside the
// repository (never committed), runs `drainguard lint` and `drainguard fix --dry` over them, and
// checks ../shared/corpus/expected.tsv. Exit 0 when every expectation holds, 1 otherwise.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR as corpusDir, MODULES_DIR as modules, ROOT as root, corpusPackages, installCorpus } from './corpus-cache.mjs';

const cli = path.join(root, 'dist/cli.js');
const LINE_TOLERANCE = 2;

// OPEN entries of expected.tsv: our verdicts, checked like the others.
const OPEN_VERDICTS = {
  '@anthropic-ai/sdk': {
    expect: [
      ['src/lib/middleware.ts', 724],
      ['lib/middleware.js', 543],
      ['lib/middleware.mjs', 538],
    ],
    why: 'TP: the refusal-fallback middleware returns out of `for await` over Stream.rawEvents(response, controller) once message_delta carries stop_reason "refusal"; leaving the loop ends the iterator, which aborts the response before message_stop and the end of the body, and the retry that follows pays a new connection. The SDK\'s own Stream drains.',
  },
  replicate: {
    expect: [['lib/stream.js', 102]],
    why: 'TP: `break` out of `for await` over streamAsyncIterator(stream) on the "done" event leaves the body (piped from response.body) unread after the terminal event; the iterator\'s return releases it without reading to EOF, so the connection is not reused.',
  },
  ollama: {
    expect: [],
    why: 'Not reported: AbortableAsyncIterator returns out of `for await` over this.itr (a JSON iterator handed to its constructor) after `done`; the rule cannot see from this file that itr wraps a response, and the iterator only releases the reader lock, which is not one of the closes (cancel/abort/aclose/destroy/return/terminate). Abandoning the body is a different bug (the connection waits for GC) and out of scope for this rule.',
  },
  '@huggingface/inference': {
    expect: [],
    why: 'Not reported: innerStreamingRequest returns on [DONE] from its reader loop without cancelling; the finally only releases the lock. No close happens, so there is nothing for this rule to report (the body is abandoned, like ollama).',
  },
};

// Reports in packages with TP rows that no TP row names: each needs a verdict here, or the run fails.
const OTHER_REPORT_VERDICTS = [
  {
    file: '@elevenlabs/elevenlabs-js/core/stream/Stream.js',
    line: 239,
    why: 'TP (the STRETCH row): iterSseEvents returns out of the downleveled for-await over the body when dispatchSseEvent() returned null, which it does exactly when the data holds the stream terminator; the loop\'s finally calls stream_2.return(), which cancels the body before EOF.',
  },
  ...[119, 154, 239].map((line) => ({
    file: '@elevenlabs/elevenlabs-js/dist/core/stream/Stream.js',
    line,
    why: 'TP: dist/ ships a second copy of core/stream/Stream.js (same lines); the same early returns out of the downleveled for-await over the body.',
  })),
  {
    file: 'hume/dist/cjs/core/stream/Stream.js',
    line: 139,
    why: 'TP: the CommonJS build of hume/dist/esm/core/stream/Stream.mjs:135 (return when dispatchSseEvent() returned null on the terminator).',
  },
  ...['mistralai-azure', 'mistralai-gcp'].map((name) => ({
    file: `@mistralai/mistralai/packages/${name}/src/lib/event-streams.ts`,
    line: 49,
    why: 'TP: the Azure and GCP sub-packages carry the same Speakeasy event-streams.ts as src/lib (upstream.cancel("done") on the sentinel).',
  })),
  {
    file: '@s2-dev/streamstore/dist/cjs/lib/event-stream.js',
    line: 50,
    why: 'TP: the CommonJS build of dist/esm/lib/event-stream.js:47.',
  },
  {
    file: 'opperai/bin/mcp-server.js',
    line: 60161,
    why: 'TP: the bundled MCP server inlines the Speakeasy EventStream (same code as lib/event-streams): upstream.cancel("done") on the sentinel, before EOF.',
  },
  {
    file: 'opperai/dist/commonjs/lib/event-streams.js',
    line: 29,
    why: 'TP: the CommonJS build of opperai/src/lib/event-streams.ts:36.',
  },
  {
    file: 'opperai/dist/esm/lib/event-streams.js',
    line: 26,
    why: 'TP: the ESM build of opperai/src/lib/event-streams.ts:36.',
  },
];

function log(line = '') {
  process.stdout.write(`${line}\n`);
}

function readExpectations() {
  return readFileSync(path.join(corpusDir, 'expected.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [kind, file, lineNo, what] = line.split('\t');
      return { kind, file, line: Number(lineNo), what };
    });
}

function runCli(args) {
  try {
    return execFileSync(process.execPath, [cli, ...args], { cwd: modules, maxBuffer: 1 << 30, encoding: 'utf8' });
  } catch (error) {
    if (typeof error.status === 'number' && error.status === 1 && error.stdout) return error.stdout;
    throw error;
  }
}

function packageOf(relative) {
  const parts = relative.split('/');
  return relative.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

installCorpus(log);
const packages = corpusPackages();
const expectations = readExpectations();

let started = Date.now();
const lintResults = JSON.parse(runCli(['lint', '--format', 'json', ...packages]));
const lintMs = Date.now() - started;
const reports = [];
const fatals = [];
for (const result of lintResults) {
  const relative = path.relative(modules, result.filePath).split(path.sep).join('/');
  for (const message of result.messages) {
    if (message.fatal) fatals.push(`${relative}:${message.line} ${message.message}`);
    else reports.push({ file: relative, line: message.line, column: message.column, message: message.message });
  }
}

started = Date.now();
const fixReport = JSON.parse(runCli(['fix', '--dry', '--json', ...packages]));
const fixMs = Date.now() - started;
const fixSites = fixReport.files.flatMap((file) =>
  file.sites.map((site) => ({ ...site, file: path.relative(modules, file.path).split(path.sep).join('/') })),
);

const near = (items, file, line) => items.filter((item) => item.file === file && Math.abs(item.line - line) <= LINE_TOLERANCE);
const rows = [];
let failures = 0;
const check = (ok, kind, where, verdict, detail) => {
  if (!ok) failures++;
  rows.push([ok ? 'ok' : 'FAIL', kind, where, verdict, detail]);
};

for (const expectation of expectations) {
  if (expectation.kind === 'TP') {
    const found = near(reports, expectation.file, expectation.line);
    const site = near(fixSites, expectation.file, expectation.line)[0];
    const fixed = site ? `${site.status}${site.reason ? ` (${site.reason})` : ''}` : 'no fix site';
    check(found.length > 0 && site !== undefined && (site.status === 'fixed' || Boolean(site.reason)), 'TP', `${expectation.file}:${expectation.line}`, found.length > 0 ? `reported at ${found[0].line}:${found[0].column}` : 'MISSED', `fix --dry: ${fixed}`);
  } else if (expectation.kind === 'STRETCH') {
    // Reported, never failed: a shape the rule is not required to find.
    const found = near(reports, expectation.file, expectation.line);
    rows.push([found.length > 0 ? 'found' : 'missed', 'STRETCH', `${expectation.file}:${expectation.line}`, found.length > 0 ? `reported at ${found[0].line}:${found[0].column}` : 'not reported', expectation.what]);
  } else if (expectation.kind === 'TN') {
    const found = reports.filter((report) => report.file === expectation.file && report.line === expectation.line);
    check(found.length === 0, 'TN', `${expectation.file}:${expectation.line}`, found.length === 0 ? 'not reported' : 'FALSE ALARM', expectation.what);
  } else if (expectation.kind === 'TNPKG') {
    const found = reports.filter((report) => packageOf(report.file) === expectation.file);
    check(found.length === 0, 'TNPKG', expectation.file, found.length === 0 ? 'no report' : `${found.length} FALSE ALARMS: ${found.map((r) => `${r.file}:${r.line}`).join(', ')}`, expectation.what);
  } else if (expectation.kind === 'OPEN') {
    const verdict = OPEN_VERDICTS[expectation.file];
    const inPackage = reports.filter((report) => packageOf(report.file) === expectation.file);
    const expected = verdict?.expect ?? [];
    const allFound = expected.every(([file, line]) => near(inPackage, `${expectation.file}/${file}`, line).length > 0);
    const noExtra = inPackage.every((report) => expected.some(([file, line]) => report.file === `${expectation.file}/${file}` && Math.abs(report.line - line) <= LINE_TOLERANCE));
    check(Boolean(verdict) && allFound && noExtra, 'OPEN', expectation.file, inPackage.length ? `reported: ${inPackage.map((r) => `${r.file.slice(expectation.file.length + 1)}:${r.line}`).join(', ')}` : 'no report', verdict?.why ?? 'no verdict written');
  }
}
// Every report in a package that has TP rows is either one of them or has a written verdict.
const tpPackages = new Set(expectations.filter((e) => e.kind === 'TP').map((e) => packageOf(e.file)));
const explained = (report) =>
  expectations.some((e) => (e.kind === 'TP' || e.kind === 'STRETCH') && e.file === report.file && Math.abs(e.line - report.line) <= LINE_TOLERANCE) ||
  OTHER_REPORT_VERDICTS.some((v) => v.file === report.file && Math.abs(v.line - report.line) <= LINE_TOLERANCE);
for (const report of reports.filter((r) => tpPackages.has(packageOf(r.file)) && !explained(r))) {
  check(false, 'EXTRA', `${report.file}:${report.line}`, 'reported, no verdict written', report.message);
}
for (const verdict of OTHER_REPORT_VERDICTS) {
  const found = near(reports, verdict.file, verdict.line);
  check(found.length > 0, 'VERDICT', `${verdict.file}:${verdict.line}`, found.length > 0 ? `reported at ${found[0].line}:${found[0].column}` : 'MISSED', verdict.why);
}
check(fatals.length === 0, 'PARSE', 'all files', fatals.length === 0 ? 'every file parsed' : `${fatals.length} unparsable`, fatals.slice(0, 5).join('; '));
check(fixReport.summary.errors === 0, 'FIX', 'all files', `fix --dry: ${fixReport.summary.errors} errors`, `${fixReport.summary.sitesFound} sites: ${fixReport.summary.fixed} fixed, ${fixReport.summary.manual} manual`);

log();
log(`| result | kind | where | verdict | detail |`);
log(`|---|---|---|---|---|`);
for (const row of rows) log(`| ${row.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`);
log();
log(`All reports (${reports.length}) and what fix --dry would do with them:`);
for (const report of reports) {
  const site = fixSites.find((candidate) => candidate.file === report.file && candidate.line === report.line && candidate.column === report.column);
  log(`  ${report.file}:${report.line}:${report.column}  ${site ? site.status + (site.reason ? ` — ${site.reason}` : '') : 'not a fix site'}`);
}
log();
log(`lint: ${lintResults.length} files in ${lintMs} ms; fix --dry: ${fixReport.summary.filesScanned} files in ${fixMs} ms`);
log(failures === 0 ? 'corpus: every expectation holds' : `corpus: ${failures} expectation(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
