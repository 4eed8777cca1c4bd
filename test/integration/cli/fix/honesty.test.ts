/**
 * `drainguard fix` on projects set up with the tools the problems came from, installed from the npm registry into a
 * cache folder outside the repository (DRAINGUARD_FIX_TOOLS_CACHE, else ~/.cache/drainguard-fix-tools; the first run
 * installs them): TypeScript 6, which raises TS5011 on a project with `outDir` and no `rootDir` before any rewrite,
 * and checks composite projects as `tsc --build` does; and oxfmt, whose `oxfmt.config.ts` Node.js before 22.18 cannot
 * load. Verification must compare the project's diagnostics before and after (a second, resumed run rolls nothing
 * back), and a configuration the formatter cannot load is reported, not replaced.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run, userEnv } from '../../packaging/support.js';

const TOOLS = { typescript: '6.0.3', oxfmt: '0.62.0' };
const CACHE = process.env.DRAINGUARD_FIX_TOOLS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'drainguard-fix-tools');
const CLI = join(ROOT, 'dist/cli.js');
const FIXTURE = join(ROOT, 'fixtures/01-ts-while-reader-cancel-return');
const output = readFileSync(join(FIXTURE, 'output.ts'), 'utf8');
/** The tools' commands, and the formatter's `#!/usr/bin/env node`, run on the Node.js that runs the tests. */
const env = userEnv({ PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` });

beforeAll(async () => {
  const manifest = `${JSON.stringify({ private: true, dependencies: TOOLS }, null, 2)}\n`;
  const stamp = join(CACHE, 'node_modules', '.installed');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === manifest) return;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(join(CACHE, 'package.json'), manifest);
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: CACHE, env, timeoutMs: 300_000 });
  if (install.code !== 0) throw new Error(`npm install in ${CACHE} failed:\n${install.stdout}\n${install.stderr}`);
  writeFileSync(stamp, manifest);
}, 320_000);

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

/** A git work tree with the tools installed, `tsconfig.json` and the fixture's client as each of `clients`. */
function project(tsconfig: object, clients: string[], extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'drainguard-fix-honesty-'));
  git(dir, 'init', '-q');
  symlinkSync(join(CACHE, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, '.gitignore'), 'node_modules\ndist\n');
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
  for (const client of clients) {
    mkdirSync(dirname(join(dir, client)), { recursive: true });
    copyFileSync(join(FIXTURE, 'input.ts'), join(dir, client));
  }
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

// Without the test of the helper module (test/integration/helper-test covers it): what tsc says of the project here is
// about the rewrites and the module.
const fix = (dir: string, ...args: string[]) => run(process.execPath, [CLI, 'fix', '--no-test', ...args], { cwd: dir, env });
const tsc = (dir: string, ...args: string[]) => run(join(dir, 'node_modules/.bin/tsc'), args, { cwd: dir, env });
const compilerOptions = { strict: true, target: 'es2022', module: 'nodenext', lib: ['es2022', 'dom', 'dom.asynciterable'], types: [] };

describe('drainguard fix verification against TypeScript 6', () => {
  it("rolls back nothing for TS5011, which tsc raises on the untouched project: a first run, a resumed run and a second run", async () => {
    const clients = ['src/a/one.ts', 'src/a/two.ts', 'src/b/three.ts', 'src/c/four.ts'];
    const dir = project({ compilerOptions: { ...compilerOptions, outDir: 'dist' }, include: ['src'] }, clients);
    const ts5011 =
      "tsconfig.json(12,5): error TS5011: The common source directory of 'tsconfig.json' is './src'. The 'rootDir' setting must be explicitly set to this or another path to adjust your output's file layout.\n" +
      '  Visit https://aka.ms/ts6 for migration information.\n';
    expect(await tsc(dir, '-p', '.', '--noEmit', 'false')).toEqual({ code: 2, stdout: ts5011, stderr: '' });

    expect(await fix(dir)).toEqual({
      code: 0,
      stdout: 'src/drain-body.ts  helper module created\n' + clients.map((client) => `${client}:11:13  fixed\n`).join('') + '4 files scanned, 4 sites: 4 fixed, 0 manual, 0 errors\n',
      stderr: '',
    });
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'fix');
    // As after a run stopped while writing: the module and two files written, two not.
    git(dir, 'checkout', 'HEAD~1', '--', 'src/b', 'src/c');
    git(dir, 'commit', '-qm', 'resume');
    expect(await fix(dir)).toEqual({
      code: 0,
      stdout: 'src/b/three.ts:11:13  fixed\nsrc/c/four.ts:11:13  fixed\n5 files scanned, 2 sites: 2 fixed, 0 manual, 0 errors\n',
      stderr: '',
    });
    expect(clients.map((client) => readFileSync(join(dir, client), 'utf8'))).toEqual(clients.map(() => output.replace("from './drain-body.js'", "from '../drain-body.js'")));
    expect(await fix(dir)).toEqual({ code: 0, stdout: '5 files scanned, 0 sites: 0 fixed, 0 manual, 0 errors\n', stderr: '' });
    // What tsc says of the result: its own TS5011, nothing more.
    expect(await tsc(dir, '-p', '.', '--noEmit', 'false')).toEqual({ code: 2, stdout: ts5011, stderr: '' });
  }, 180_000);

  it('checks a composite project as tsc --build does: a new module its include covers is listed, a resumed run is fixed too', async () => {
    const dir = project({ compilerOptions: { ...compilerOptions, composite: true, rootDir: 'src', outDir: 'dist' }, include: ['src'] }, ['src/a/one.ts', 'src/b/two.ts']);
    expect(await fix(dir)).toEqual({
      code: 0,
      stdout: 'src/drain-body.ts  helper module created\nsrc/a/one.ts:11:13  fixed\nsrc/b/two.ts:11:13  fixed\n2 files scanned, 2 sites: 2 fixed, 0 manual, 0 errors\n',
      stderr: '',
    });
    expect(await tsc(dir, '--build')).toEqual({ code: 0, stdout: '', stderr: '' });
    git(dir, 'add', 'src');
    git(dir, 'commit', '-qm', 'fix');
    git(dir, 'checkout', 'HEAD~1', '--', 'src/b');
    git(dir, 'commit', '-qm', 'resume');
    expect(await fix(dir)).toEqual({ code: 0, stdout: 'src/b/two.ts:11:13  fixed\n3 files scanned, 1 site: 1 fixed, 0 manual, 0 errors\n', stderr: '' });
    expect(await tsc(dir, '--build')).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 180_000);
});

describe("drainguard fix and the repository's oxfmt", () => {
  // Node.js strips TypeScript types from 22.18 (23.6) on: oxfmt loads its TypeScript configuration only there.
  const [major, minor] = process.versions.node.split('.').map(Number);
  const loadsTypeScript = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  const config = "import { defineConfig } from 'oxfmt';\n\nexport default defineConfig({ printWidth: 110, singleQuote: true });\n";

  it.skipIf(loadsTypeScript)(`an oxfmt.config.ts that Node.js ${process.versions.node} cannot load is reported, with oxfmt's reason and what to run`, async () => {
    const dir = project({ compilerOptions: { ...compilerOptions, noEmit: true } }, ['src/client.ts'], { 'oxfmt.config.ts': config });
    const result = await fix(dir, 'src');
    expect(result).toEqual({
      code: 0,
      stdout:
        'src/drain-body.ts  helper module created\n' +
        'src/client.ts:11:13  fixed\n' +
        'oxfmt.config.ts  not formatted: oxfmt cannot load its configuration: Failed to load configuration file. oxfmt.config.ts Error: Unknown file extension ".ts" for oxfmt.config.ts ' +
        `TypeScript config files require Node.js ^20.19.0 || >=22.18.0. Detected Node.js ${process.version}. Please upgrade Node.js or use a JSON config file instead. ` +
        'Ensure the file has a valid default export of a JSON-serializable configuration object; ' +
        "2 written files laid out as drainguard writes them (the settings the configuration states, else the file's own style): " +
        "run the repository's formatter on them: node_modules/.bin/oxfmt src/drain-body.ts src/client.ts\n" +
        '1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n',
      stderr: '',
    });
    expect(readFileSync(join(dir, 'src/client.ts'), 'utf8')).toBe(output);
  }, 120_000);

  it.skipIf(!loadsTypeScript)(`an oxfmt.config.ts that Node.js ${process.versions.node} loads: the rewrite is formatted with it, nothing is reported`, async () => {
    const dir = project({ compilerOptions: { ...compilerOptions, noEmit: true } }, ['src/client.ts'], { 'oxfmt.config.ts': config });
    expect(await fix(dir, 'src')).toEqual({ code: 0, stdout: 'src/drain-body.ts  helper module created\nsrc/client.ts:11:13  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n', stderr: '' });
    const check = await run(join(dir, 'node_modules/.bin/oxfmt'), ['--check', 'src/drain-body.ts', 'src/client.ts'], { cwd: dir, env });
    expect(check.code).toBe(0);
  }, 120_000);
});
