// Reads what a suite run left behind (vitest's JSON report, tsc's output) into plain records, and
// compares a run after the fix with the baseline before it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const TIMEOUT = /(Test|Hook) timed out in \d+ ?ms/;

/**
 * Whether a failed test hit its timeout. vitest 4's JSON report may carry only `STACK_TRACE_ERROR`
 * for a timeout, so a failure that lasted the whole timeout counts too.
 * @param {string} failure @param {number} duration @param {number} testTimeoutMs
 */
function timedOut(failure, duration, testTimeoutMs) {
  return TIMEOUT.test(failure) || (testTimeoutMs > 0 && duration >= testTimeoutMs * 0.99);
}

/**
 * `key` names the test (`file > full name`, prefixed by `run: ` when the suite has several runs);
 * `file` is its test file relative to the run's folder, `run` the run's label.
 * @typedef {{ key: string, file: string, run: string, status: string, duration: number, failure: string, timedOut: boolean }} TestRecord
 * @typedef {{ ran: boolean, killed: boolean, ms: number, counts: Record<string, number>, tests: TestRecord[] }} SuiteRun
 */

/**
 * @param {string} reportFile vitest's --reporter=json output
 * @param {string} root the run's folder (test file paths are reported relative to it)
 * @param {{ killed: boolean, ms: number, testTimeoutMs?: number, run?: string, prefix?: boolean }} process
 *   `prefix`: start each key with the run's label (a suite of several runs)
 * @returns {SuiteRun}
 */
export function readVitestReport(reportFile, root, { killed, ms, testTimeoutMs = 0, run = '', prefix = false }) {
  if (!existsSync(reportFile)) return { ran: false, killed, ms, counts: {}, tests: [] };
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const head = prefix ? `${run}: ` : '';
  /** @type {TestRecord[]} */
  const tests = [];
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name).split(path.sep).join('/');
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') {
      const failure = String(file.message ?? '');
      tests.push({ key: `${head}${relative} (the file did not run)`, file: relative, run, status: 'failed', duration: 0, failure, timedOut: timedOut(failure, 0, 0) });
    }
    for (const test of file.assertionResults ?? []) {
      const failure = (test.failureMessages ?? []).join('\n');
      const duration = test.duration ?? 0;
      tests.push({
        key: `${head}${relative} > ${test.fullName}`,
        file: relative,
        run,
        status: test.status,
        duration,
        failure,
        timedOut: test.status === 'failed' && timedOut(failure, duration, testTimeoutMs),
      });
    }
  }
  return { ran: true, killed, ms, counts: countStatuses(tests), tests };
}

/** @param {TestRecord[]} tests */
function countStatuses(tests) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const test of tests) counts[test.status] = (counts[test.status] ?? 0) + 1;
  return counts;
}

/**
 * The runs of one suite as one: it ran if any run left a report, it was killed if any was.
 * @param {SuiteRun[]} runs
 * @returns {SuiteRun}
 */
export function mergeSuiteRuns(runs) {
  const tests = runs.flatMap((run) => run.tests);
  return {
    ran: runs.some((run) => run.ran),
    killed: runs.some((run) => run.killed),
    ms: runs.reduce((sum, run) => sum + run.ms, 0),
    counts: countStatuses(tests),
    tests,
  };
}

/**
 * @param {SuiteRun} before
 * @param {SuiteRun} after
 */
export function compareSuites(before, after) {
  const beforeByKey = new Map(before.tests.map((test) => [test.key, test]));
  const afterKeys = new Set(after.tests.map((test) => test.key));
  const failed = (test) => test?.status === 'failed';
  return {
    newFailures: after.tests.filter((test) => failed(test) && !failed(beforeByKey.get(test.key))),
    fixedFailures: before.tests.filter((test) => failed(test) && afterKeys.has(test.key) && !failed(after.tests.find((t) => t.key === test.key))),
    stillFailing: after.tests.filter((test) => failed(test) && failed(beforeByKey.get(test.key))),
    missing: before.tests.filter((test) => !afterKeys.has(test.key)).map((test) => test.key),
    // A test that failed before the fix as well is no hang of the fix's making.
    timedOut: after.tests.filter((test) => test.timedOut && !failed(beforeByKey.get(test.key))),
  };
}

/**
 * Takes a second run of the new failures' files into a comparison: a test that passed there is
 * flaky, neither a new failure nor a hang. Returns the flaky tests.
 * @param {ReturnType<typeof compareSuites> & { flaky?: TestRecord[] }} comparison
 * @param {SuiteRun} rerun
 */
export function settleRerun(comparison, rerun) {
  const passed = new Set(rerun.tests.filter((test) => test.status === 'passed').map((test) => test.key));
  const flaky = comparison.newFailures.filter((test) => passed.has(test.key));
  comparison.newFailures = comparison.newFailures.filter((test) => !passed.has(test.key));
  comparison.timedOut = comparison.timedOut.filter((test) => !passed.has(test.key));
  return flaky;
}

/**
 * tsc's `file(line,col): error TSnnnn: message` lines.
 * @param {string} output
 * @returns {{ file: string, line: number, column: number, code: string, message: string }[]}
 */
export function parseTscDiagnostics(output) {
  const out = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line.trim());
    if (match) out.push({ file: match[1], line: Number(match[2]), column: Number(match[3]), code: match[4], message: match[5] });
  }
  return out;
}

/** Diagnostics after the fix that the baseline did not have (compared without positions: a rewrite moves lines). */
export function newDiagnostics(before, after) {
  const key = (d) => `${d.file}\u0000${d.code}\u0000${d.message}`;
  const seen = new Map();
  for (const d of before) seen.set(key(d), (seen.get(key(d)) ?? 0) + 1);
  const out = [];
  for (const d of after) {
    const left = seen.get(key(d)) ?? 0;
    if (left > 0) seen.set(key(d), left - 1);
    else out.push(d);
  }
  return out;
}

/** The first lines of a failure message: the assertion, without the stack. */
export function assertionOf(failure) {
  const lines = failure.split('\n');
  const stackStart = lines.findIndex((line) => /^\s+at /.test(line));
  return (stackStart === -1 ? lines : lines.slice(0, stackStart)).join('\n').trim().slice(0, 1200);
}

/**
 * Where a failure's assertion sits in its test file (the first stack frame in that file), and
 * that source line, read from the checkout.
 * @param {TestRecord} test
 * @param {string} testsRoot the folder of the test's run (its `file` is relative to it)
 * @returns {{ line: number, source: string } | null}
 */
export function assertionSite(test, testsRoot) {
  const file = test.file;
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+):\\d+`).exec(test.failure);
  if (!match) return null;
  const line = Number(match[1]);
  const full = path.join(testsRoot, file);
  if (!existsSync(full)) return null;
  const source = readFileSync(full, 'utf8').split('\n')[line - 1]?.trim() ?? '';
  return { line, source };
}

/**
 * A failing assertion that checks the early close itself: that a cancel/abort/destroy/close spy was
 * called. Such tests change with the fix on purpose; a maintainer updates them.
 * @param {string} source
 */
export function assertsEarlyClose(source) {
  return /expect\(\s*[\w.]*(cancel|abort|destroy|close)\w*\s*\)\s*\.(not\.)?toHaveBeenCalled/i.test(source);
}
