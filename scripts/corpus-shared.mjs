// The checks of ../shared/corpus/expected.tsv (TP, TN, TNPKG, OPEN, STRETCH rows) and our verdicts on its OPEN
// packages and on the reports its TP rows do not name. Used by scripts/corpus.mjs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LINE_TOLERANCE, fixStatus, near, packageOf } from './corpus-run.mjs';

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

function readExpectations(dir) {
  return readFileSync(path.join(dir, 'expected.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [kind, file, lineNo, what] = line.split('\t');
      return { kind, file, line: Number(lineNo), what };
    });
}

/** Rows `[result, kind, where, verdict, detail]` and the number of failed expectations. */
export function checkSharedCorpus({ dir, reports, fixSites }) {
  const expectations = readExpectations(dir);
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
      check(found.length > 0 && site !== undefined && (site.status === 'fixed' || Boolean(site.reason)), 'TP', `${expectation.file}:${expectation.line}`, found.length > 0 ? `reported at ${found[0].line}:${found[0].column}` : 'MISSED', `fix --dry: ${fixStatus(site)}`);
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
  return { rows, failures };
}
