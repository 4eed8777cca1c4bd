// The parts of scripts/sdk-suites.mjs that decide what the report says: where a repository is cloned
// from, reading vitest's JSON report and tsc's output, comparing before/after, which checks got worse,
// and the probe's real server. What runs processes (a hung command bounded, a mirror without some blobs
// checked out, the repository's checks on the changed files before and after, with git on local
// repositories): test/integration/sdk-suites/harness.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertionOf,
  assertionSite,
  assertsEarlyClose,
  compareSuites,
  mergeSuiteRuns,
  newDiagnostics,
  parseTscDiagnostics,
  readVitestReport,
  settleRerun,
} from '../../scripts/sdk-suites/results.mjs';
import { lineStats, parsePorcelain } from '../../scripts/sdk-suites/checks.mjs';
import { checkGotWorse, diagnosticCounts, failedChecks, formatProveTable, formatResultsSection, formatSdkReport, worseThanBefore } from '../../scripts/sdk-suites/report.mjs';
import { cloneSource } from '../../scripts/sdk-suites/sdks.mjs';
import { bodyCounter, countingDispatcher, countingHttpAgent, terminalEnd } from '../../scripts/sdk-suites/probe-bytes.mjs';
import { drainMaxBytes, formatProbeTable, mergeRemeasured, p50max, probeRows, probeWorse, rowsToRemeasure, rowWorse, summarize } from '../../scripts/sdk-suites/probe-report.mjs';
import { PROBES } from '../../scripts/sdk-suites/probe-calls.mjs';
import { proveScript } from '../../scripts/sdk-suites/prove-script.mjs';
import { startStreamServer } from '../support/testing-kit.mjs';

/** node-fetch 2 (CommonJS, untyped): a fetch whose bodies are Node streams. */
const nodeFetch = createRequire(import.meta.url)('node-fetch') as (url: string, init: { agent: unknown }) => Promise<Response>;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function vitestReport(root: string, tests: { title: string; status: string; failure?: string; duration?: number }[], fileFailure?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-suites-'));
  dirs.push(dir);
  const file = join(dir, 'report.json');
  const testResults = [
    {
      name: join(root, 'tests/streaming.test.ts'),
      status: tests.some((t) => t.status === 'failed') ? 'failed' : 'passed',
      message: '',
      assertionResults: tests.map((t) => ({
        fullName: `Stream ${t.title}`,
        title: t.title,
        status: t.status,
        duration: t.duration ?? 3,
        failureMessages: t.failure ? [t.failure] : [],
      })),
    },
  ];
  if (fileFailure) testResults.push({ name: join(root, 'tests/broken.test.ts'), status: 'failed', message: fileFailure, assertionResults: [] });
  writeFileSync(file, JSON.stringify({ testResults }));
  return file;
}

describe('results', () => {
  it('reads tsc diagnostics and reports only those the baseline did not have, wherever they moved', () => {
    const before = parseTscDiagnostics('src/a.ts(3,5): error TS2322: Type number is not assignable.\nFound 1 error.\n');
    const after = parseTscDiagnostics(
      'src/a.ts(9,5): error TS2322: Type number is not assignable.\nsrc/core/streaming.ts(120,11): error TS18048: \'reader\' is possibly \'undefined\'.\n',
    );
    expect(before).toEqual([{ file: 'src/a.ts', line: 3, column: 5, code: 'TS2322', message: 'Type number is not assignable.' }]);
    expect(newDiagnostics(before, after)).toEqual([
      { file: 'src/core/streaming.ts', line: 120, column: 11, code: 'TS18048', message: "'reader' is possibly 'undefined'." },
    ]);
  });

  it('lists new failures with their assertion, timeouts as hangs, and files that did not run', () => {
    const root = '/sdk';
    const before = readVitestReport(
      vitestReport(root, [
        { title: 'decodes events', status: 'passed' },
        { title: 'cancels at [DONE]', status: 'passed' },
        { title: 'already broken on Node 20', status: 'failed', failure: 'TypeError: x is not a function\n    at foo (a.ts:1:1)' },
      ]),
      root,
      { killed: false, ms: 10 },
    );
    const after = readVitestReport(
      vitestReport(
        root,
        [
          { title: 'decodes events', status: 'failed', failure: 'Error: Test timed out in 30000ms.\nIf this is a long-running test, pass a timeout value' },
          { title: 'cancels at [DONE]', status: 'failed', failure: 'AssertionError: expected "cancel" to be called 1 times, but got 0 times\n    at t.ts:5:3' },
          { title: 'already broken on Node 20', status: 'failed', failure: 'Error: Test timed out in 30000ms.' },
          { title: 'hangs with a bare message', status: 'failed', failure: 'Error: STACK_TRACE_ERROR\n    at task (runner.js:1:1)', duration: 30004.7 },
          { title: 'slow but passing', status: 'passed', duration: 30001 },
        ],
        'Error: Cannot find module ./gone',
      ),
      root,
      { killed: false, ms: 10, testTimeoutMs: 30000 },
    );
    expect(before.counts).toEqual({ passed: 2, failed: 1 });
    expect(after.counts).toEqual({ failed: 5, passed: 1 });
    const comparison = compareSuites(before, after);
    expect(comparison.newFailures.map((t) => t.key)).toEqual([
      'tests/streaming.test.ts > Stream decodes events',
      'tests/streaming.test.ts > Stream cancels at [DONE]',
      'tests/streaming.test.ts > Stream hangs with a bare message',
      'tests/broken.test.ts (the file did not run)',
    ]);
    expect(comparison.timedOut.map((t) => t.key)).toEqual([
      'tests/streaming.test.ts > Stream decodes events',
      'tests/streaming.test.ts > Stream hangs with a bare message',
    ]);
    expect(comparison.stillFailing.map((t) => t.key)).toEqual(['tests/streaming.test.ts > Stream already broken on Node 20']);
    expect(assertionOf(comparison.newFailures[1].failure)).toBe('AssertionError: expected "cancel" to be called 1 times, but got 0 times');

    // Their files run again: a test that passes there was flaky (a timeout on a loaded machine), not a hang.
    const rerun = readVitestReport(
      vitestReport(root, [
        { title: 'decodes events', status: 'passed' },
        { title: 'cancels at [DONE]', status: 'failed', failure: 'AssertionError: expected "cancel" to be called 1 times' },
        { title: 'hangs with a bare message', status: 'failed', failure: 'Error: STACK_TRACE_ERROR', duration: 30001 },
      ]),
      root,
      { killed: false, ms: 10, testTimeoutMs: 30000 },
    );
    expect(settleRerun(comparison, rerun).map((t) => t.key)).toEqual(['tests/streaming.test.ts > Stream decodes events']);
    expect(comparison.newFailures.map((t) => t.key)).toEqual([
      'tests/streaming.test.ts > Stream cancels at [DONE]',
      'tests/streaming.test.ts > Stream hangs with a bare message',
      'tests/broken.test.ts (the file did not run)',
    ]);
    expect(comparison.timedOut.map((t) => t.key)).toEqual(['tests/streaming.test.ts > Stream hangs with a bare message']);
  });

  it('a suite that left no report is one that did not run', () => {
    expect(readVitestReport('/nonexistent/report.json', '/sdk', { killed: true, ms: 5 })).toEqual({ ran: false, killed: true, ms: 5, counts: {}, tests: [] });
  });
});

describe('assertion sites', () => {
  it('finds the failing line in the test file and tells a check of the early close from other assertions', () => {
    const root = mkdtempSync(join(tmpdir(), 'sdk-suites-'));
    dirs.push(root);
    mkdirSync(join(root, 'tests/lib'), { recursive: true });
    writeFileSync(
      join(root, 'tests/lib/streaming.test.ts'),
      ["test('x', async () => {", '  await collect(stream);', '  expect(cancel).toHaveBeenCalledTimes(1);', '  expect(decoded).toEqual([16, 14]);', '});', ''].join('\n'),
    );
    const failure = (line: number) =>
      `AssertionError: nope\n    at ${join(root, 'tests/lib/streaming.test.ts')}:${line}:5\n    at runner (vitest/dist/chunk.js:10:2)`;
    const test = { key: 'tests/lib/streaming.test.ts > x', file: 'tests/lib/streaming.test.ts', run: 'unit', status: 'failed', duration: 1, timedOut: false };
    const cancelSite = assertionSite({ ...test, failure: failure(3) }, root);
    const decodeSite = assertionSite({ ...test, failure: failure(4) }, root);
    expect(cancelSite).toEqual({ line: 3, source: 'expect(cancel).toHaveBeenCalledTimes(1);' });
    expect(decodeSite).toEqual({ line: 4, source: 'expect(decoded).toEqual([16, 14]);' });
    expect(assertsEarlyClose(cancelSite!.source)).toBe(true);
    expect(assertsEarlyClose(decodeSite!.source)).toBe(false);
    expect(assertsEarlyClose('expect(body.cancel).toHaveBeenCalled();')).toBe(true);
    expect(assertsEarlyClose('expect(controller.signal.aborted).toBe(false);')).toBe(false);
    expect(assertionSite({ ...test, failure: 'Error: STACK_TRACE_ERROR', timedOut: true }, root)).toBeNull();
  });
});

const TEXTS = ['event 0', 'event 1', 'event 2'];
const MODES = ['end', 'silent', 'trickle', 'flood', 'endless', 'reset'];

/** One scenario of a probe (probe.mjs), two calls. */
function scenario({ connections = 2, bytes = [17, 17], wait = [1, 2], letGo = [20, 21], errors = [null, null] as (string | null)[], messages = [TEXTS, TEXTS], openAtEnd = 0, unhandled = [] as string[] } = {}) {
  return {
    connections,
    requests: 2,
    openAtEnd,
    closedEarly: 0,
    letGoMs: letGo,
    calls: [0, 1].map((i) => ({ messages: messages[i], error: errors[i], waitMs: wait[i], bytesAfterTerminal: bytes[i] })),
    unhandled,
  };
}

/** A probe's output: every mode with the default scenarios, but those given. */
function probeResult(modes: Record<string, { backToBack?: ReturnType<typeof scenario>; paced?: ReturnType<typeof scenario> }>) {
  const native: Record<string, unknown> = {};
  for (const mode of MODES) native[mode] = { backToBack: scenario(), paced: scenario({ connections: 1 }), ...modes[mode] };
  return { sdk: 'sdk', calls: 2, pausedMs: 50, tailDelayMs: 20, expected: TEXTS, callers: { native } };
}

describe('report', () => {
  it('tags each new failure and prints the probe before and after', () => {
    const suite = (tests: { key: string; status: string }[]) => ({
      ran: true,
      killed: false,
      ms: 2000,
      counts: { passed: tests.filter((t) => t.status === 'passed').length, failed: tests.filter((t) => t.status === 'failed').length },
      tests: tests.map((t) => ({ ...t, file: 'a', run: 'unit', duration: 1, failure: '', timedOut: false })),
    });
    const record = {
      name: 'sdk',
      repo: 'owner/sdk',
      commit: '0123456789abcdef',
      node: 'v22.23.5',
      drainguard: { dir: '/dg', commit: 'fedcba9876543210' },
      fixCommand: 'drainguard fix --force --json --no-verify src/',
      typecheckCommand: 'tsc',
      fix: { code: 0, summary: { fixed: 1 }, sites: [{ path: 'src/s.ts', line: 3, column: 5, status: 'fixed' }] },
      diff: '',
      files: [
        { path: 'src/s.ts', created: false, before: { lines: 120, longest: 79 }, after: { lines: 139, longest: 138 } },
        { path: 'src/drain.ts', created: true, before: null, after: { lines: 30, longest: 90 } },
      ],
      checks: {
        before: [
          { name: 'oxlint', code: 0, timedOut: false, output: 'Found 0 warnings and 0 errors.\n', files: ['src/s.ts'] },
          { name: 'oxfmt', code: 1, timedOut: false, output: 'src/s.ts (1 line over)', files: ['src/s.ts'] },
        ],
        after: [
          { name: 'oxlint', code: 1, timedOut: false, output: '  x eslint(curly): Expected { after \'if\' condition.\nFound 0 warnings and 1 error.\n', files: ['src/s.ts', 'src/drain.ts'] },
          { name: 'oxfmt', code: 1, timedOut: false, output: 'src/s.ts (1 line over)', files: ['src/s.ts', 'src/drain.ts'] },
        ],
      },
      newDiagnostics: [],
      before: { tsc: { code: 0, diagnostics: [] }, suite: suite([{ key: 'a > cancels', status: 'passed' }, { key: 'a > parses', status: 'passed' }]), probe: probeResult({}) },
      after: { tsc: { code: 0, diagnostics: [] }, suite: suite([{ key: 'a > cancels', status: 'failed' }, { key: 'a > parses', status: 'failed' }]), probe: { error: 'the probe did not finish within 100 ms (hang)' } },
      comparison: {
        newFailures: [
          { key: 'a > cancels', status: 'failed', duration: 1, failure: 'AssertionError: expected "vi.fn()" to be called 1 times', timedOut: false, assertsEarlyClose: true, site: { line: 9, source: 'expect(cancel).toHaveBeenCalledTimes(1);' } },
          { key: 'a > parses', status: 'failed', duration: 30001, failure: 'Error: STACK_TRACE_ERROR', timedOut: true, assertsEarlyClose: false, site: null },
        ],
        fixedFailures: [],
        stillFailing: [],
        missing: [],
        timedOut: [{ key: 'a > parses' }],
        flaky: [],
      },
    };
    const lines = formatSdkReport(record).split('\n');
    expect(lines[0]).toBe('## owner/sdk @ 0123456789ab (sdk)');
    expect(lines[2]).toBe('drainguard: /dg @ fedcba987654; SDK commands on Node v22.23.5');
    expect(lines[3]).toBe('fix (drainguard fix --force --json --no-verify src/): exit 0; {"fixed":1}');
    expect(lines).toContain('changed files (2):');
    expect(lines).toContain('  src/s.ts: 120 -> 139 lines (+19), longest line 79 -> 138');
    expect(lines).toContain('  src/drain.ts (created): 30 lines, longest line 90');
    expect(lines).toContain('check `oxlint` on the changed files: before clean (errors: 0, warnings: 0), after exit 1 (errors: 1, warnings: 0) — WORSE');
    expect(lines).toContain("      x eslint(curly): Expected { after 'if' condition.");
    expect(lines).toContain('check `oxfmt` on the changed files: before exit 1, after exit 1');
    // Failing before with the same output is not the fix's doing; failing after a clean run is.
    expect(failedChecks(record).map((c) => c.name)).toEqual(['oxlint']);
    expect(worseThanBefore(record)).toBe(true);
    expect(lines).toContain('  src/s.ts:3:5 fixed');
    expect(lines).toContain('tests after:  2 failed (2 tests, 2 s)');
    expect(lines).toContain('hang: YES (1 timed out)');
    expect(lines).toContain('new failures (2, of which 1 assert the early close itself):');
    expect(lines).toContain('  - [asserts the early close] a > cancels');
    expect(lines).toContain('      line 9: expect(cancel).toHaveBeenCalledTimes(1);');
    expect(lines).toContain('  - [HANG: timed out after 30001 ms] a > parses');
    expect(lines).toContain('probe of the rewrite failed: the probe did not finish within 100 ms (hang)');
    expect(formatResultsSection({ ...record, testCommands: ['vitest run'] }).split('\n')).toEqual([
      '### owner/sdk @ `0123456789ab` (`--sdk sdk`)',
      '',
      '- **Fix** (`drainguard fix --force --json --no-verify src/`, exit 0): `src/s.ts:3:5` fixed.',
      '  Changed: `src/s.ts` +19 lines, `src/drain.ts` created (30 lines).',
      '- **Type-check** (`tsc`): clean → clean.',
      '- **Tests** (`vitest run`): 2 passed → 2 failed; 1 new failures assert the early close itself (`expect(cancel).toHaveBeenCalledTimes(1);`); **1 other new failures**: a > parses (timed out).',
      '- **Lint and format on the changed files**: `oxlint` clean (errors: 0, warnings: 0) → exit 1 (errors: 1, warnings: 0) (**worse**); `oxfmt` exit 1 → exit 1.',
      '- **Worse than before** (`worseThanBefore`): **yes**.',
      '',
      'probe of the rewrite failed: the probe did not finish within 100 ms (hang)',
    ]);
  });
});

describe('probe report', () => {
  const limits = { maxBytes: 131072 };

  it('takes the median and maximum of both paces, counts errors and what went unhandled', () => {
    expect(p50max([])).toEqual({ p50: null, max: null });
    expect(p50max([5, 1, 3, 2])).toEqual({ p50: 2, max: 5 });
    const summary = summarize(
      {
        backToBack: scenario({ connections: 3, bytes: [0, 64698], wait: [0.5, null as unknown as number], errors: [null, 'TypeError: terminated'] }),
        paced: scenario({ connections: 1, bytes: [17, 17], wait: [1, 9], unhandled: ['unhandled rejection: Error: boom'] }),
      },
      TEXTS,
    );
    expect(summary).toEqual({
      connectionsBackToBack: 3,
      connectionsPaced: 1,
      requests: 4,
      bytes: { p50: 17, max: 64698 },
      wait: { p50: 1, max: 9 },
      letGo: { p50: 20, max: 21 },
      closedEarly: 0,
      openAtEnd: 0,
      errors: 2,
      errorTexts: ['TypeError: terminated', 'unhandled rejection: Error: boom'],
      messages: [TEXTS, TEXTS, TEXTS, TEXTS],
      expected: true,
    });
  });

  const texts = (reasons: { text: string }[]) => reasons.map((reason) => reason.text);

  it('calls a row worse only beyond the bounds: bytes, connections, wait, errors, messages, bodies left open', () => {
    const row = (options: Parameters<typeof scenario>[0] = {}, paced: Parameters<typeof scenario>[0] = {}) =>
      summarize({ backToBack: scenario(options), paced: scenario({ connections: 1, ...paced }) }, TEXTS);
    const original = row({ connections: 12, bytes: [64698, 64698] }, { connections: 11, bytes: [64698, 64698] });
    const bound = 64698 + 131072 + 65536;
    expect(texts(rowWorse(original, row({ connections: 13, bytes: [bound, bound] }, { connections: 12, bytes: [bound, bound] }), limits))).toEqual([]);
    expect(texts(rowWorse(original, row({ connections: 12, bytes: [64698, bound + 1] }, { connections: 11, bytes: [64698, 64698] }), limits))).toEqual([
      'read 261307 bytes after the terminal event (max), over the original\'s 64698 + 131072 + 65536',
    ]);
    expect(texts(rowWorse(original, row({ connections: 14, bytes: [64698, 64698] }, { connections: 13, bytes: [64698, 64698] }), limits))).toEqual([
      '14 connections back to back, over the original\'s 12 + 1',
      '13 connections paced, over the original\'s 11 + 1',
    ]);
    const calm = row();
    expect(texts(rowWorse(calm, row({ wait: [101, 102] }, { wait: [1, 2] }), limits))).toEqual([]);
    expect(texts(rowWorse(calm, row({ wait: [101, 102.5] }, { wait: [1, 2] }), limits))).toEqual([
      'the caller waited 102.5 ms after the terminal event (max), over the original\'s 2 + 100',
    ]);
    expect(texts(rowWorse(calm, row({ wait: [500, 600] }, { wait: [500, 600] }), limits))).toEqual([
      'the caller waited 500 ms after the terminal event (p50), over the original\'s 1 + 100',
      'the caller waited 600 ms after the terminal event (max), over the original\'s 2 + 100',
    ]);
    expect(texts(rowWorse(calm, row({ errors: [null, 'TypeError: terminated'] }), limits))).toEqual(['1 errors against 0: TypeError: terminated']);
    expect(texts(rowWorse(calm, row({}, { unhandled: ['uncaught exception: Error: read ECONNRESET'] }), limits))).toEqual([
      '1 errors against 0: uncaught exception: Error: read ECONNRESET',
    ]);
    expect(texts(rowWorse(calm, row({ messages: [TEXTS, ['event 0']] }), limits))).toEqual(['other messages than the original delivered']);
    expect(texts(rowWorse(calm, row({ openAtEnd: 2 }), limits))).toEqual(['2 bodies still open when every drain should have ended, against 0']);
    // The same error as the original's, as often, is none of the rewrite's doing.
    const failing = row({ errors: ['TypeError: terminated', null] });
    expect(texts(rowWorse(failing, row({ errors: [null, 'TypeError: terminated'] }), limits))).toEqual([]);
  });

  it('prints one row per caller and body, original → rewrite, and why a row is worse', () => {
    const before = probeResult({ silent: { backToBack: scenario({ connections: 12, bytes: [0, 0], wait: [0.8, 2.1], letGo: [2, 6] }) } });
    const after = probeResult({
      silent: { backToBack: scenario({ connections: 14, bytes: [0, 0], wait: [0.9, 5.2], letGo: [54, 1002] }) },
      reset: { paced: scenario({ connections: 1, errors: ['TypeError: terminated', null] }) },
    });
    expect(probeRows(before, after, limits).map((row) => [row.caller, row.mode, row.worse.length])).toEqual([
      ['native', 'end', 0],
      ['native', 'silent', 1],
      ['native', 'trickle', 0],
      ['native', 'flood', 0],
      ['native', 'endless', 0],
      ['native', 'reset', 1],
    ]);
    expect(formatProbeTable(before, after, limits)).toEqual([
      '2 calls back to back and 2 calls 50 ms apart per row, each on fresh servers; every cell original → rewrite; bytes and waits over all 4 calls. Worse: bytes over the original\'s + 131072 + 65536, connections over the original\'s + 1, a wait over the original\'s + 100 ms, a new error, other messages, a body left open.',
      '',
      "| caller | after the terminal event | connections, back to back | connections, 50 ms apart | bytes read after it, p50 / max | caller's wait after it, ms, p50 / max | body closed or ended after it, ms, p50 / max | errors | messages | worse |",
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
      '| Node fetch | ends 20 ms later | 2 → 2 | 1 → 1 | 17 / 17 → 17 / 17 | 1 / 2 → 1 / 2 | 20 / 21 → 20 / 21 | 0 → 0 | same | no |',
      '| Node fetch | held open, silent | 12 → 14 | 1 → 1 | 0 / 17 → 0 / 17 | 1 / 2.1 → 1 / 5.2 | 6 / 21 → 21 / 1002 | 0 → 0 | same | **yes** |',
      '| Node fetch | a comment every 100 ms | 2 → 2 | 1 → 1 | 17 / 17 → 17 / 17 | 1 / 2 → 1 / 2 | 20 / 21 → 20 / 21 | 0 → 0 | same | no |',
      '| Node fetch | a flood of comments | 2 → 2 | 1 → 1 | 17 / 17 → 17 / 17 | 1 / 2 → 1 / 2 | 20 / 21 → 20 / 21 | 0 → 0 | same | no |',
      '| Node fetch | one endless line | 2 → 2 | 1 → 1 | 17 / 17 → 17 / 17 | 1 / 2 → 1 / 2 | 20 / 21 → 20 / 21 | 0 → 0 | same | no |',
      '| Node fetch | reset 20 ms later | 2 → 2 | 1 → 1 | 17 / 17 → 17 / 17 | 1 / 2 → 1 / 2 | 20 / 21 → 20 / 21 | 0 → 1 | same | **yes** |',
      '',
      'Where the rewrite is worse than the original:',
      "- Node fetch, held open, silent: 14 connections back to back, over the original's 12 + 1",
      '- Node fetch, reset 20 ms later: 1 errors against 0: TypeError: terminated',
      '',
      'Errors:',
      '- Node fetch, reset 20 ms later, rewrite: TypeError: terminated',
    ]);
    expect(probeWorse(before, after, limits)).toBe(true);
    expect(probeWorse(before, before, limits)).toBe(false);
    expect(probeWorse(before, { error: 'the probe did not finish within 100 ms (hang)' }, limits)).toBe(true);
    expect(probeWorse({ error: 'bundling failed' }, after, limits)).toBe(false);
    expect(formatProbeTable({ error: 'bundling failed' }, after, limits)).toEqual(['probe of the original failed: bundling failed']);
  });

  it('measures again a row worse only by the wait or the bytes, and says what the first run found', () => {
    const before = probeResult({});
    const after = probeResult({
      flood: { backToBack: scenario({ wait: [1, 169.9] }) },
      endless: { backToBack: scenario({ bytes: [900000, 900000] }) },
      silent: { backToBack: scenario({ wait: [1, 169.9], connections: 14 }) },
    });
    const rows = rowsToRemeasure(before, after, limits);
    expect(rows.map((row) => row.mode)).toEqual(['flood', 'endless']);
    const again = {
      ...probeResult({}),
      callers: {
        native: {
          flood: { backToBack: scenario({ wait: [1, 30] }), paced: scenario({ connections: 1 }) },
          endless: { backToBack: scenario({ bytes: [900000, 900000] }), paced: scenario({ connections: 1 }) },
        },
      },
    };
    mergeRemeasured(before, after, probeResult({}), again, rows);
    expect(probeRows(before, after, limits).map((row) => [row.mode, row.worse.map((reason) => reason.kind)])).toEqual([
      ['end', []],
      ['silent', ['connections', 'wait']],
      ['trickle', []],
      ['flood', []],
      ['endless', ['bytes']],
      ['reset', []],
    ]);
    expect(formatProbeTable(before, after, limits).slice(-3)).toEqual([
      'Worse only by the wait or the bytes at first, so measured again (original and rewrite), the table shows the second run:',
      "- Node fetch, a flood of comments, first run: the caller waited 169.9 ms after the terminal event (max), over the original's 2 + 100",
      "- Node fetch, one endless line, first run: read 900000 bytes after the terminal event (max), over the original's 17 + 131072 + 65536",
    ]);
  });

  it("prints drainguard prove's runs, original → rewrite, from its JSON reports", () => {
    const run = (mode: string, connections: number, closedEarly: number, slowestReturnMs: number) => ({ mode, requests: 10, connections, closedEarly, retries: 0, slowestReturnMs, exitCode: 0, signal: null, timedOut: false, errorLine: '' });
    const before = { exitCode: 0, report: { calls: 10, runs: [run('end', 13, 10, 11.4), run('silent', 13, 10, 13)] } };
    const after = { exitCode: 0, report: { calls: 10, runs: [run('end', 3, 0, 8.6), { ...run('silent', 14, 10, 20_001), exitCode: null, timedOut: true }] } };
    expect(formatProveTable(before, after)).toEqual([
      '`drainguard prove --calls 10` (Node fetch, the calls back to back), original → rewrite:',
      '',
      '| after the terminal event | requests | connections | closed early | slowest return, ms | exit |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
      '| ends 20 ms later | 10 → 10 | 13 → 3 | 10 → 0 | 11 → 9 | 0 → 0 |',
      '| held open, silent | 10 → 10 | 13 → 14 | 10 → 10 | 13 → 20001 | 0 → timed out |',
    ]);
    expect(formatProveTable(before, { error: 'drainguard prove did not finish within 150000 ms' })).toEqual([
      'drainguard prove of the rewrite failed: drainguard prove did not finish within 150000 ms',
    ]);
    expect(formatProveTable(null, null)).toEqual([]);
  });

  it('reads the byte limit the fix was given', () => {
    expect(drainMaxBytes([])).toBe(131072);
    expect(drainMaxBytes(['--no-verify', '--drain-max-bytes=65536'])).toBe(65536);
    expect(drainMaxBytes(['--drain-max-bytes', '1024'])).toBe(1024);
  });

  it('gives drainguard prove the probe\'s events where one server can serve the call', () => {
    expect(proveScript(PROBES['cohere-typescript'])).toEqual({
      format: 'sse',
      events: TEXTS.map((text) => ({ type: 'content-delta', index: 0, delta: { message: { content: { text } } } })),
    });
    expect(proveScript(PROBES['anthropic-sdk-typescript'])).toBeNull();
  });
});

describe('probe bytes', () => {
  const DONE = 'data: [DONE]\n\n';

  it('finds the first terminal frame, also split across chunks, and counts what follows it', () => {
    expect(terminalEnd('data: {}\n\ndata: [DONE]\n\n: tail', [DONE])).toBe(24);
    expect(terminalEnd('data: {}\n\n', [DONE])).toBe(-1);
    const counter = bodyCounter([DONE, 'data: {"type":"message_stop"}\n\n']);
    counter.setCall(3);
    const count = counter.open();
    for (const text of ['data: {}\n\ndata: [DO', 'NE]\n\n: a', 'bc\n\n']) count(Buffer.from(text));
    expect(counter.bodies).toEqual([{ call: 3, bytes: 31, afterTerminal: 7, head: '' }]);
  });

  it('counts what Node fetch and node-fetch 2 received after the terminal event, through the SDK\'s default fetch and a custom one', async () => {
    const server = await startStreamServer({ mode: 'end', tailDelayMs: 0 });
    try {
      const counter = bodyCounter([DONE]);
      const dispatcher = await countingDispatcher(counter);
      counter.setCall(0);
      await (await fetch(server.url, { dispatcher } as RequestInit)).text();
      const agent = countingHttpAgent(counter);
      counter.setCall(1);
      await (await nodeFetch(server.url, { agent })).text();
      agent.destroy();
      await dispatcher.destroy();
      expect(counter.bodies.map((body) => [body.call, body.afterTerminal])).toEqual([
        [0, ': end of stream\n\n'.length],
        [1, ': end of stream\n\n'.length],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('clone source', () => {
  it('clones the public URL unless a mirror template names another place', () => {
    expect(cloneSource({ repo: 'openai/openai-node' }, undefined)).toEqual({ url: 'https://github.com/openai/openai-node.git', mirror: false });
    expect(cloneSource({ repo: 'openai/openai-node' }, '/srv/git/{owner}+{name}/repo')).toEqual({ url: '/srv/git/openai+openai-node/repo', mirror: true });
    expect(() => cloneSource({ repo: 'openai/openai-node' }, '/srv/git')).toThrow('DRAINGUARD_SDK_MIRROR must contain {owner} and {name} (it is /srv/git)');
  });
});

describe('checks on the changed files', () => {
  it('lists changed and created files, not deleted ones', () => {
    expect(parsePorcelain(' M src/a.ts\0?? src/drain.ts\0 D src/gone.ts\0R  src/new.ts\0src/old.ts\0A  src/added.ts\0')).toEqual([
      { path: 'src/a.ts', created: false },
      { path: 'src/drain.ts', created: true },
      { path: 'src/new.ts', created: false },
      { path: 'src/added.ts', created: true },
    ]);
    expect(lineStats('a\r\nlonger line\n\n')).toEqual({ lines: 3, longest: 11 });
  });

  it('calls a check worse when it fails anew, counts more warnings or errors, or (without counts) prints something new', () => {
    const oxlint = 'Found 0 warnings and 0 errors.\nFinished in 958ms on 1 file with 415 rules using 2 threads.';
    const biome = 'src/s.ts:80:52 lint/suspicious/noExplicitAny\nChecked 1 file in 5ms. No fixes applied.\nFound 6 warnings.';
    expect(diagnosticCounts(oxlint)).toEqual({ warnings: 0, errors: 0 });
    expect(diagnosticCounts('Checked 1 file in 5ms.\nFound 1 error.\nFound 7 warnings.')).toEqual({ warnings: 7, errors: 1 });
    expect(diagnosticCounts('All matched files use the correct format.')).toBeNull();
    const check = (code: number, output: string) => ({ code, output });
    // Existing warnings that moved with the rewrite, another duration or file count: not worse.
    expect(checkGotWorse(check(0, biome), check(0, biome.replace('80:52', '98:52').replace('5ms', '12ms')))).toBe(false);
    expect(checkGotWorse(check(0, 'All matched files use the correct format.\nFinished in 333ms on 1 files'), check(0, 'All matched files use the correct format.\nFinished in 95ms on 2 files'))).toBe(false);
    // A new warning with exit 0, a new failure, a failure with other output.
    expect(checkGotWorse(check(0, biome), check(0, biome.replace('6 warnings', '7 warnings')))).toBe(true);
    expect(checkGotWorse(check(0, oxlint), check(1, 'Found 0 warnings and 25 errors.'))).toBe(true);
    expect(checkGotWorse(check(1, 'src/s.ts (1 line over)'), check(1, 'src/s.ts (15 lines over)'))).toBe(true);
    expect(checkGotWorse(undefined, check(0, ''))).toBe(false);
  });
});

describe('suites of several runs', () => {
  it('prefixes keys with the run and keeps each test file relative to its run', () => {
    const root = '/sdk/packages/google';
    const node = readVitestReport(vitestReport(root, [{ title: 'streams', status: 'passed' }]), root, { killed: false, ms: 10, run: 'node', prefix: true });
    const edge = readVitestReport(vitestReport(root, [{ title: 'streams', status: 'failed', failure: 'boom' }]), root, { killed: true, ms: 5, run: 'edge', prefix: true });
    const suite = mergeSuiteRuns([node, edge]);
    expect(suite.tests.map((t) => [t.key, t.file, t.run, t.status])).toEqual([
      ['node: tests/streaming.test.ts > Stream streams', 'tests/streaming.test.ts', 'node', 'passed'],
      ['edge: tests/streaming.test.ts > Stream streams', 'tests/streaming.test.ts', 'edge', 'failed'],
    ]);
    expect(suite).toMatchObject({ ran: true, killed: true, ms: 15, counts: { passed: 1, failed: 1 } });
  });
});
