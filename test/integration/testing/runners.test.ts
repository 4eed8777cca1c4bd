// The regression tests of docs/examples, run by the test runners users run them with: vitest, jest
// (CommonJS, jest's default) and node:test import `drainguard/testing` by its package name; pytest uses
// `drainguard serve` through the fixture of docs/examples/pytest/conftest.py. Each must pass, test by test.
// (The fixture's text in docs/testing.md and that page's links: test/testing/runners.test.ts, in process.)
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { processesWithEnv } from '../../support/processes.js';
import { CLI, ROOT } from '../../cli/helpers.js';

const EXAMPLES = path.join(ROOT, 'docs/examples');
const JS_TESTS = ['20 streamed calls reuse one keep-alive connection', 'a call returns promptly, and lets go of the body, whatever follows [DONE]'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a runner from the repository root, without the variables of the vitest run around it. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_OPTIONS$|FORCE_COLOR$)/.test(key)) childEnv[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...childEnv, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const describeRun = (result: Run): string => `exit ${String(result.code)}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;

interface JestLikeReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { title: string; status: string }[] }[];
}
const passedTitles = (report: JestLikeReport): string[] =>
  report.testResults.flatMap((file) => file.assertionResults.filter((test) => test.status === 'passed').map((test) => test.title));

describe('the docs/examples regression tests, under each runner', () => {
  it('vitest', async () => {
    const result = await run(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', path.join(EXAMPLES, 'vitest'), '--reporter=json']);
    expect(result.code, describeRun(result)).toBe(0);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as JestLikeReport;
    expect({ passed: report.numPassedTests, failed: report.numFailedTests }).toEqual({ passed: 2, failed: 0 });
    expect(passedTitles(report)).toEqual(JS_TESTS);
  });

  it('jest (CommonJS)', async () => {
    const result = await run(process.execPath, [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--rootDir', path.join(EXAMPLES, 'jest'), '--json']);
    expect(result.code, describeRun(result)).toBe(0);
    const report = JSON.parse(result.stdout) as JestLikeReport;
    expect({ passed: report.numPassedTests, failed: report.numFailedTests }).toEqual({ passed: 2, failed: 0 });
    expect(passedTitles(report)).toEqual(JS_TESTS);
  });

  it('node --test', async () => {
    const result = await run(process.execPath, ['--test', '--test-reporter=tap', path.join(EXAMPLES, 'node-test/keepalive.test.mjs')]);
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout.match(/^ok \d+ - .*$/gm)).toEqual(JS_TESTS.map((title, i) => `ok ${i + 1} - ${title}`));
    expect(result.stdout).toContain('# pass 2\n# fail 0\n');
  });

  const pythonMissing = (() => {
    const check = spawnSync('/usr/bin/python3', ['-c', 'import httpx, pytest'], { encoding: 'utf8' });
    if (check.error) return `/usr/bin/python3 is not there (${check.error.message})`;
    return check.status === 0 ? null : `/usr/bin/python3 cannot import httpx and pytest (apt-get install python3-httpx python3-pytest)`;
  })();
  if (pythonMissing) console.log(`skipping the pytest example: ${pythonMissing}`);

  it.skipIf(pythonMissing !== null)('pytest, through `drainguard serve` (the early close: a connection per call; drained: one; prompt against a trickle)', async () => {
    const marker = `DRAINGUARD_TEST_RUN=${randomUUID()}`;
    const result = await run('/usr/bin/python3', ['-m', 'pytest', '-v', '-p', 'no:cacheprovider', path.join(EXAMPLES, 'pytest')], {
      // Through a shell that stays the parent of the server, as npx does: the fixture must stop the server, not only it.
      DRAINGUARD: `sh -c '"$@"; exit $?' drainguard "${process.execPath}" "${CLI}"`,
      PYTHONDONTWRITEBYTECODE: '1',
      [marker.split('=')[0]]: marker.split('=')[1],
    });
    expect(result.code, describeRun(result)).toBe(0);
    // The fixture stopped every server it started (each had the marker in its environment).
    await expect.poll(() => processesWithEnv(marker) ?? [], { timeout: 5000 }).toEqual([]);
    expect(result.stdout.match(/^\S+::\w+ PASSED/gm)).toEqual([
      'docs/examples/pytest/test_keepalive.py::test_early_close_opens_a_connection_per_call PASSED',
      'docs/examples/pytest/test_keepalive.py::test_drained_calls_reuse_one_connection PASSED',
      'docs/examples/pytest/test_keepalive.py::test_drained_call_returns_promptly_from_a_trickling_body PASSED',
    ]);
  });
});
