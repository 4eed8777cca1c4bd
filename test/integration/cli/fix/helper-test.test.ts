import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixtureInput, runCli, tempDir } from './run-cli.js';
import { parseFixJson } from '../../../cli/helpers.js';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

/** An ES module package (no test framework) with one JavaScript early close, committed. */
function esmPackage(prefix: string): string {
  const dir = tempDir(prefix);
  writeFileSync(join(dir, 'package.json'), '{ "name": "sdk", "type": "module", "scripts": { "test": "node --test" } }\n');
  copyFixtureInput('02-js-while-reader-cancel-break', '.js', dir, 'client.js');
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

describe('drainguard fix: the test of the helper module', () => {
  it('writes a node:test test beside the module, which passes in the package and covers the module', async () => {
    const dir = esmPackage('fix-test-node');
    const result = await runCli(['fix'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('drain-body.js  helper module created\ndrain-body.test.js  test of the helper module created (node:test)\nclient.js:11:7  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n');
    const test = readFileSync(join(dir, 'drain-body.test.js'), 'utf8');
    expect(test).toContain("\nimport { describe, it } from 'node:test';\nimport { DRAIN_LIMITS, drainReader } from './drain-body.js';\n");
    const run = execFileSync(process.execPath, ['--test', '--experimental-test-coverage', '--test-reporter=spec', 'drain-body.test.js'], { cwd: dir, encoding: 'utf8' });
    expect(run).toContain('ℹ fail 0');
    expect(run).toMatch(/^ℹ drain-body\.js\s+\|\s+100\.00 \|\s+100\.00 \|\s+100\.00 \|/m);
  }, 60_000);

  it('a second run that changes nothing writes nothing', async () => {
    const dir = esmPackage('fix-test-again');
    expect((await runCli(['fix'], dir)).code).toBe(0);
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'fix');
    const again = await runCli(['fix', '--json'], dir);
    expect(again.code).toBe(0);
    expect(parseFixJson(again).files).toEqual([]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('--no-test writes the module and no test', async () => {
    const dir = esmPackage('fix-no-test');
    const result = await runCli(['fix', '--no-test'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('drain-body.js  helper module created\nclient.js:11:7  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n');
    expect(readdirSync(dir).sort()).toEqual(['.git', 'client.js', 'drain-body.js', 'package.json']);
  });

  it('never overwrites a file of the user at its place, and says so', async () => {
    const dir = esmPackage('fix-test-foreign');
    writeFileSync(join(dir, 'drain-body.test.js'), "import { test } from 'node:test';\n\ntest('mine', () => {});\n");
    const result = await runCli(['fix', '--json'], dir);
    expect(result.code).toBe(0);
    expect(parseFixJson(result).files[1]).toEqual({
      path: join(dir, 'drain-body.test.js'),
      changed: false,
      sites: [],
      test: 'not written',
      note: 'a file drainguard did not write is there; it is left as it is',
    });
    expect(readFileSync(join(dir, 'drain-body.test.js'), 'utf8')).toBe("import { test } from 'node:test';\n\ntest('mine', () => {});\n");
    const human = await runCli(['fix', '--dry'], esmPackageWithUserTest());
    expect(human.stdout).toContain('drain-body.test.js  test of the helper module not written: a file drainguard did not write is there; it is left as it is\n');
  });

  it('--dry --print shows the new test as a new file, which git apply creates', async () => {
    const dir = esmPackage('fix-test-print');
    const printed = await runCli(['fix', '--dry', '--print'], dir);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toContain('drain-body.test.js  test of the helper module created (node:test) (not written)\n');
    expect(printed.stdout).toContain('--- /dev/null\n+++ b/drain-body.test.js\n@@ -0,0 +1,');
    writeFileSync(join(dir, 'p.diff'), printed.stdout);
    git(dir, 'apply', 'p.diff');
    expect(readFileSync(join(dir, 'drain-body.test.js'), 'utf8').split('\n')[0]).toBe('// Tests of the drain helpers, written by drainguard fix with the module (and');
  });
});

function esmPackageWithUserTest(): string {
  const dir = esmPackage('fix-test-foreign-human');
  writeFileSync(join(dir, 'drain-body.test.js'), "import { test } from 'node:test';\n");
  return dir;
}
