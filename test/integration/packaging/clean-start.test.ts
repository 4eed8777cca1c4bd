// The recipes that start from nothing, run as written: docs/recipes/python-repository.md (a clone of drainguard and
// `npm ci`, which builds it, then `npm run demo` there as the README says; the CLI installed globally from the
// checkout, from the tarball `npm pack` writes there, and from a git URL; run from the tarball through npx; the pytest
// fixture started through npx, with no process left after the run), and docs/recipes/oxlint.md in a fresh
// `npm init -y` project without a .gitignore. No npm warning for the tarball's users. github.com is replaced by a
// commit of this work tree; each global install goes to a prefix of its own (what `npm config set prefix` sets).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWithEnv } from '../../support/processes.js';
import { ROOT, copyWorkTree, describeRun, fixture, recipeBlock, run, shell, userEnv, type RunResult } from './support.js';

const GITHUB = 'https://github.com/drainguard/drainguard.git';
const ownPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
const TARBALL = `drainguard-${ownPackage.version}.tgz`;
const work = mkdtempSync(join(tmpdir(), 'drainguard-clean-start-'));
/** The repository users clone, as a local commit of this work tree: `git clone <it>` makes a `drainguard/` folder. */
const origin = join(work, 'origin', 'drainguard.git');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A recipe's text with github.com's URLs replaced by the local repository (the one change made to it). */
const local = (text: string): string => text.replaceAll(`git+${GITHUB}`, `git+file://${origin}`).replaceAll(GITHUB, origin);

/** npm as a user whose global installs go to `prefix` (a user config with `prefix=`, its bin/ first on the PATH). */
function npmUser(prefix: string): NodeJS.ProcessEnv {
  mkdirSync(prefix, { recursive: true });
  const userconfig = join(prefix, '.npmrc');
  writeFileSync(userconfig, `prefix=${prefix}\n`);
  const env = userEnv({ npm_config_userconfig: userconfig });
  return { ...env, PATH: `${join(prefix, 'bin')}${delimiter}${env.PATH ?? ''}` };
}

/** npm's warnings in a run's output, but for deprecation notices of third-party packages (out of this package's hands). */
const npmWarnings = (result: RunResult): string[] =>
  `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /^npm warn/i.test(line) && !/^npm warn deprecated /i.test(line));

const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'user.name=drainguard test', '-c', 'user.email=test@drainguard.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd });

const users = join(work, 'users');
const checkout = join(users, 'drainguard');

beforeAll(async () => {
  copyWorkTree(origin);
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'drainguard']]) {
    const result = await git(origin, ...args);
    expect(result.code, describeRun(result)).toBe(0);
  }
  // python-checkout: clone, npm ci (the build runs in postprepare).
  mkdirSync(users, { recursive: true });
  const cloned = await shell(local(recipeBlock('python-repository.md', 'python-checkout')), users, userEnv());
  expect(cloned.code, describeRun(cloned)).toBe(0);
  expect(existsSync(join(checkout, 'dist/cli.js'))).toBe(true);
}, 900_000);

/** The tarball `npm pack` writes in the checkout (python-pack), packed here when that test has not run. */
async function tarball(): Promise<string> {
  if (!existsSync(join(checkout, TARBALL))) {
    const pack = await run('npm', ['pack'], { cwd: checkout });
    expect(pack.code, describeRun(pack)).toBe(0);
  }
  return join(checkout, TARBALL);
}

describe('docs/recipes/python-repository.md, from a clean start', () => {
  it('the clone runs `npm run demo` after `npm ci` (README quick start)', async () => {
    const demo = await run('npm', ['run', 'demo'], { cwd: checkout, timeoutMs: 300_000 });
    expect(demo.code, describeRun(demo)).toBe(0);
    expect(demo.stdout).toMatch(/^early-close +\d+ /m);
    expect(demo.stdout).toMatch(/^drainguard-fixed +\d+ /m);
  }, 300_000);

  it('python-install-checkout: `npm install -g .` links the checkout as the drainguard command', async () => {
    const installed = await shell(recipeBlock('python-repository.md', 'python-install-checkout'), checkout, npmUser(join(work, 'prefix-checkout')));
    expect(installed.code, describeRun(installed)).toBe(0);
    expect(installed.stdout.trim().split('\n').at(-1)).toBe(ownPackage.version);
  }, 300_000);

  it('python-pack, python-install-tarball, python-npx-tarball: the tarball installs and runs, with no npm warning', async () => {
    const packed = await shell(recipeBlock('python-repository.md', 'python-pack'), checkout, userEnv());
    expect(packed.code, describeRun(packed)).toBe(0);
    expect(existsSync(join(checkout, TARBALL))).toBe(true);

    const installed = await shell(recipeBlock('python-repository.md', 'python-install-tarball'), checkout, npmUser(join(work, 'prefix-tarball')));
    expect(installed.code, describeRun(installed)).toBe(0);
    expect(installed.stdout.trim().split('\n').at(-1)).toBe(ownPackage.version);
    expect(npmWarnings(installed)).toEqual([]);

    const npx = await shell(recipeBlock('python-repository.md', 'python-npx-tarball'), checkout, userEnv());
    expect(npx.code, describeRun(npx)).toBe(0);
    expect(npx.stdout.trim()).toBe(ownPackage.version);
    expect(npmWarnings(npx)).toEqual([]);

    // The installed command lints Python: the grammar ships in the tarball.
    const sdk = join(work, 'python-sdk');
    mkdirSync(join(sdk, 'pkg'), { recursive: true });
    copyFileSync(join(ROOT, 'fixtures/python/02-aconnect-sse-break/input.py'), join(sdk, 'pkg/transport.py'));
    const linted = await run('drainguard', ['lint', 'pkg'], { cwd: sdk, env: npmUser(join(work, 'prefix-tarball')) });
    expect(linted.code, describeRun(linted)).toBe(1);
    expect(linted.stdout).toMatch(/transport\.py\n\s+12:23\s+error\s/);
  }, 600_000);

  it('python-install-git: `npm pack` of the git URL builds the tarball, which installs', async () => {
    const dir = join(work, 'from-git');
    mkdirSync(dir, { recursive: true });
    const installed = await shell(local(recipeBlock('python-repository.md', 'python-install-git')), dir, npmUser(join(work, 'prefix-git')));
    expect(installed.code, describeRun(installed)).toBe(0);
    expect(installed.stdout.trim().split('\n').at(-1)).toBe(ownPackage.version);
    expect(npmWarnings(installed)).toEqual([]);
  }, 900_000);

  // The recipe's `python3`: the first on the PATH that has pytest and httpx, Debian's (/usr/bin) before the others.
  const pythonDir = ['/usr/bin', ...(process.env.PATH ?? '').split(delimiter)].find(
    (dir) => dir !== '' && spawnSync(join(dir, 'python3'), ['-c', 'import httpx, pytest'], { stdio: 'ignore' }).status === 0,
  );
  const pythonMissing = pythonDir ? null : 'no python3 that can import httpx and pytest (apt-get install python3-httpx python3-pytest)';
  if (pythonMissing) console.log(`skipping the pytest recipe: ${pythonMissing}`);
  it.skipIf(pythonMissing !== null)('python-pytest: the fixture runs drainguard serve through npx from the tarball, and leaves no process behind', async () => {
    const dir = join(work, 'pytest');
    mkdirSync(dir, { recursive: true });
    for (const file of ['conftest.py', 'test_keepalive.py']) copyFileSync(join(ROOT, 'docs/examples/pytest', file), join(dir, file));
    copyFileSync(await tarball(), join(dir, TARBALL));
    const marker = randomUUID();
    const env = userEnv({ DRAINGUARD_TEST_RUN: marker, PYTHONDONTWRITEBYTECODE: '1' });
    const result = await shell(recipeBlock('python-repository.md', 'python-pytest'), dir, { ...env, PATH: `${pythonDir!}${delimiter}${env.PATH ?? ''}` });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toMatch(/\b3 passed\b/);
    await expect.poll(() => processesWithEnv(`DRAINGUARD_TEST_RUN=${marker}`) ?? [], { timeout: 10_000 }).toEqual([]);
  }, 300_000);
});

describe('docs/recipes/oxlint.md in a fresh `npm init -y` project (no .gitignore)', () => {
  it('installs with no npm warning, and oxlint lints the project, not node_modules', async () => {
    const dir = join(work, 'oxlint-project');
    mkdirSync(dir, { recursive: true });
    const init = await run('npm', ['init', '-y'], { cwd: dir });
    expect(init.code, describeRun(init)).toBe(0);
    // The recipe's install line, with the tarball for drainguard and oxlint at the version drainguard depends on.
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--save-dev', await tarball(), `oxlint@${ownPackage.dependencies.oxlint}`], { cwd: dir, timeoutMs: 400_000 });
    expect(install.code, describeRun(install)).toBe(0);
    expect(npmWarnings(install)).toEqual([]);

    writeFileSync(join(dir, '.oxlintrc.json'), recipeBlock('oxlint.md', 'oxlint-config'));
    const early = fixture('01-ts-while-reader-cancel-return');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/early.ts'), early.input);
    writeFileSync(join(dir, 'src/clean.ts'), early.output);
    expect(existsSync(join(dir, '.gitignore'))).toBe(false);

    const linted = await shell(recipeBlock('oxlint.md', 'oxlint-run').trim(), dir);
    expect(linted.code, describeRun(linted)).toBe(1);
    // oxlint colours its report when the environment asks for colour (FORCE_COLOR in some CI runners).
    linted.stdout = stripVTControlCharacters(linted.stdout);
    expect(linted.stdout).toContain('drainguard(no-early-stream-close)');
    expect(linted.stdout).toContain(`[src/early.ts:${early.sites[0].line}:${early.sites[0].column}]`);
    expect(linted.stdout).not.toContain('node_modules');
    // Only the project's own files: src/early.ts and src/clean.ts.
    expect(linted.stdout).toMatch(/\bon 2 files\b/);
  }, 600_000);
});
