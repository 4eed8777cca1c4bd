// The test `drainguard fix` writes with its helper module, in small projects of each framework (vitest, jest, mocha,
// node:test), each with its tools installed from the npm registry into a cache outside the repository: fix places it
// where the project's own test command finds it, that command runs it to green, the project's coverage tool sees every
// line and branch of the module, TypeScript checks it, and a second fix writes nothing.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, describeRun, run, type RunResult } from '../packaging/support.js';

const CLI = join(ROOT, 'dist/cli.js');
const CACHE = process.env.DRAINGUARD_HELPER_TEST_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'drainguard-helper-test');
const work = mkdtempSync(join(tmpdir(), 'drainguard-helper-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Each project's tools, pinned; installed once per set into CACHE/<name>. */
const TOOLS: Record<string, string[]> = {
  vitest: ['vitest@4.1.12', '@vitest/coverage-v8@4.1.12', 'typescript@5.9.3', '@types/node@20.19.43'],
  jest: ['jest@30.5.2', 'ts-jest@29.4.15', '@types/jest@30.0.0', 'typescript@5.9.3', '@types/node@20.19.43'],
  mocha: ['mocha@11.7.5', 'c8@10.1.3'],
  'node-test': [],
};

/** The node_modules of a tool set, installed into the cache where it is not there yet (a file names what it holds). */
async function tools(name: string): Promise<string> {
  const dir = join(CACHE, name);
  const stamp = join(dir, 'installed.json');
  const wanted = JSON.stringify(TOOLS[name]);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    if (TOOLS[name].length > 0) {
      const install = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', ...TOOLS[name]], { cwd: dir, timeoutMs: 600_000 });
      expect(install.code, describeRun(install)).toBe(0);
    } else mkdirSync(join(dir, 'node_modules'), { recursive: true });
    writeFileSync(stamp, wanted);
  }
  return join(dir, 'node_modules');
}

const input = (name: string): string => {
  const dir = join(FIXTURES, name);
  const file = ['input.ts', 'input.js'].find((candidate) => existsSync(join(dir, candidate)))!;
  return readFileSync(join(dir, file), 'utf8');
};

/** A project: its files, its tools linked as node_modules, a git repository with one commit. */
async function project(name: string, toolSet: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  symlinkSync(await tools(toolSet), join(dir, 'node_modules'), 'dir');
  await git(dir, 'init', '-q');
  writeFileSync(join(dir, '.gitignore'), 'node_modules\ncoverage\n');
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-qm', 'init');
  return dir;
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const git = (dir: string, ...args: string[]): Promise<RunResult> => run('git', args, { cwd: dir, env: GIT_ENV });
const bin = (dir: string, name: string): string => join(dir, 'node_modules/.bin', name);

/** `drainguard fix`, then a second one after a commit: it writes nothing. Returns the first's report lines. */
async function fixTwice(dir: string, paths: string[]): Promise<string[]> {
  const fix = await run(process.execPath, [CLI, 'fix', ...paths], { cwd: dir });
  expect(fix.code, describeRun(fix)).toBe(0);
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-qm', 'fix');
  const again = await run(process.execPath, [CLI, 'fix', ...paths], { cwd: dir });
  expect(again.code, describeRun(again)).toBe(0);
  expect((await git(dir, 'status', '--porcelain')).stdout).toBe('');
  return fix.stdout.split('\n').filter((line) => /helper module|test of the helper module/.test(line));
}

/** The coverage row of the helper module in a text report: statements, branches, functions, lines. */
function coverageRow(report: string, file: string): string[] {
  const row = report.split('\n').find((line) => line.includes(file) && line.includes('|'));
  expect(row, report).toBeDefined();
  return row!
    .split('|')
    .slice(1, 5)
    .map((cell) => cell.trim());
}

describe('the test written with the helper module, run by each framework', () => {
  it('vitest (TypeScript, tests/ mirroring src/, an include pattern): passes, covers the module, type-checks', async () => {
    const dir = await project('vitest', 'vitest', {
      'package.json': '{ "name": "sdk", "type": "module", "scripts": { "test": "vitest run" }, "devDependencies": { "vitest": "4.1.12" } }\n',
      'vitest.config.ts': "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({\n  test: {\n    include: ['tests/**/*.test.ts'],\n  },\n});\n",
      'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', lib: ['es2022', 'dom'], types: ['node'], noEmit: true, skipLibCheck: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true }, include: ['tests/core', 'src/core/drain-body.ts'] })}\n`,
      'src/core/parser.ts': input('38-ts-sdk-generator-parser'),
      'src/core/iterator.ts': input('35-ts-for-await-aclose-response'),
      'src/core/loop.ts': input('05-ts-for-await-return-value'),
      'src/core/messages.ts': input('57-ts-finally-after-catch-terminal-flag'),
      'src/core/node.ts': input('46-ts-node-data-handler-axios-undici'),
      'tests/other/thing.test.ts': "import { describe, expect, it } from 'vitest';\n\ndescribe('thing', () => {\n  it('is', () => {\n    expect(1).toBe(1);\n  });\n});\n",
    });
    expect(await fixTwice(dir, ['--no-verify', 'src'])).toEqual(['src/core/drain-body.ts  helper module created', 'tests/core/drain-body.test.ts  test of the helper module created (vitest)']);
    expect(readFileSync(join(dir, 'tests/core/drain-body.test.ts'), 'utf8')).toContain("\nimport { describe, it } from 'vitest';\n");
    const test = await run(bin(dir, 'vitest'), ['run', '--coverage.enabled', '--coverage.include=src/core/drain-body.ts', '--coverage.reporter=text'], { cwd: dir });
    expect(test.code, describeRun(test)).toBe(0);
    expect(test.stdout).toMatch(/Tests\s+\d+ passed/);
    expect(coverageRow(test.stdout, 'drain-body.ts')).toEqual(['100', '100', '100', '100']);
    const tsc = await run(bin(dir, 'tsc'), ['-p', 'tsconfig.json'], { cwd: dir });
    expect(tsc.code, describeRun(tsc)).toBe(0);
  }, 600_000);

  it('jest (TypeScript through ts-jest, which type-checks it; colocated .spec files, test(), globals): passes and covers the module', async () => {
    const dir = await project('jest', 'jest', {
      'package.json': '{ "name": "sdk", "scripts": { "test": "jest" }, "devDependencies": { "jest": "30.5.2", "ts-jest": "29.4.15" } }\n',
      'jest.config.js': "module.exports = {\n  preset: 'ts-jest',\n  testEnvironment: 'node',\n};\n",
      'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs', moduleResolution: 'node', esModuleInterop: true, lib: ['es2022', 'dom'], types: ['node', 'jest'], skipLibCheck: true, isolatedModules: true } })}\n`,
      'src/client.ts': input('01-ts-while-reader-cancel-return'),
      'src/helpers.ts': input('40-ts-helpers-shared-names-per-function'),
      'src/util.ts': 'export const twice = (n: number): number => n * 2;\n',
      'src/util.spec.ts': "import { twice } from './util';\n\ntest('twice', () => {\n  expect(twice(2)).toBe(4);\n});\n",
    });
    expect(await fixTwice(dir, ['--no-verify', 'src'])).toEqual(['src/drain-body.ts  helper module created', 'src/drain-body.spec.ts  test of the helper module created (jest)']);
    const text = readFileSync(join(dir, 'src/drain-body.spec.ts'), 'utf8');
    expect(text).toMatch(/\n {2}drainBodyChunks,\n[^]*\n} from '\.\/drain-body';\n/);
    expect(text).toMatch(/^ {2}test\('/m);
    const test = await run(bin(dir, 'jest'), ['--coverage', '--coverageProvider=v8', '--collectCoverageFrom=src/drain-body.ts', '--coverageReporters=text'], { cwd: dir });
    expect(test.code, describeRun(test)).toBe(0);
    expect(test.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(coverageRow(test.stdout, 'drain-body.ts')).toEqual(['100', '100', '100', '100']);
  }, 600_000);

  it('mocha (JavaScript modules, a test/ folder and a .mocharc spec): passes and c8 sees the whole module', async () => {
    const dir = await project('mocha', 'mocha', {
      'package.json': '{ "name": "sdk", "type": "module", "scripts": { "test": "mocha" }, "devDependencies": { "mocha": "11.7.5" } }\n',
      '.mocharc.json': '{ "spec": "test/**/*.spec.js" }\n',
      'lib/server.js': input('39-js-node-http-inner-return'),
      'lib/data.js': input('45-js-node-data-handler'),
      'lib/stream.js': input('06-js-for-await-iterator-over-body'),
      'test/util.spec.js': "import assert from 'node:assert';\n\ndescribe('util', () => {\n  it('adds', () => {\n    assert.equal(1 + 1, 2);\n  });\n});\n",
    });
    expect(await fixTwice(dir, ['lib'])).toEqual(['lib/drain-body.js  helper module created', 'test/drain-body.spec.js  test of the helper module created (mocha)']);
    expect(readFileSync(join(dir, 'test/drain-body.spec.js'), 'utf8')).toMatch(/\n {2}drainableBody,\n[^]*\n} from '\.\.\/lib\/drain-body\.js';\n/);
    const test = await run(bin(dir, 'c8'), ['--include=lib/drain-body.js', '--reporter=text', bin(dir, 'mocha')], { cwd: dir });
    expect(test.code, describeRun(test)).toBe(0);
    expect(test.stdout).toMatch(/\d+ passing/);
    expect(coverageRow(test.stdout, 'drain-body.js')).toEqual(['100', '100', '100', '100']);
  }, 600_000);

  it('node:test (JavaScript modules, colocated tests without semicolons): in the style of the package, passes and covers the module', async () => {
    const dir = await project('node-test', 'node-test', {
      'package.json': '{ "name": "sdk", "type": "module", "scripts": { "test": "node --test" } }\n',
      'src/parse.js': input('61-js-parser-response-through-local-function'),
      'src/loop.js': input('15-js-budget-zero-for-await'),
      'src/util.js': 'export const twice = (n) => n * 2\n',
      'src/util.test.js': 'import assert from "node:assert"\nimport { test } from "node:test"\nimport { twice } from "./util.js"\n\ntest("twice", () => {\n\tassert.equal(twice(2), 4)\n})\n',
    });
    expect(await fixTwice(dir, ['src'])).toEqual(['src/drain-body.js  helper module created', 'src/drain-body.test.js  test of the helper module created (node:test)']);
    const text = readFileSync(join(dir, 'src/drain-body.test.js'), 'utf8');
    expect(text).toContain('\nimport { describe, test } from "node:test"\n');
    expect(text).toContain('\n\ttest("reads a body that ends to EOF, and the next request reuses the connection", async () => {\n');
    const test = await run('npm', ['test'], { cwd: dir });
    expect(test.code, describeRun(test)).toBe(0);
    expect(test.stdout).toMatch(/# fail 0/);
    const coverage = await run(process.execPath, ['--test', '--experimental-test-coverage', '--test-reporter=spec', 'src/drain-body.test.js'], { cwd: dir });
    expect(coverage.code, describeRun(coverage)).toBe(0);
    expect(coverage.stdout).toMatch(/^ℹ src\/drain-body\.js\s+\|\s+100\.00 \|\s+100\.00 \|\s+100\.00 \|/m);
  }, 600_000);
});
