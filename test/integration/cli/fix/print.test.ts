// `drainguard fix --print`: diffs that `git apply` takes, the `diff` field of `--json`, the
// progress line on a terminal, and `fix --version`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import packageJson from '../../../../package.json' with { type: 'json' };
import { CLI, runCli, tempProject } from '../../../cli/helpers.js';

const FIXTURES = path.join(path.dirname(CLI), '..', 'fixtures');
const fixture = (name: string, ext: string) => ({
  input: readFileSync(path.join(FIXTURES, name, `input${ext}`), 'utf8'),
  output: readFileSync(path.join(FIXTURES, name, `output${ext}`), 'utf8'),
});
const tsClient = fixture('01-ts-while-reader-cancel-return', '.ts');
const otherClient = fixture('03-ts-for-ever-reader', '.ts');
/** The helper module both rewrites import (they use the same piece). */
const helperModule = readFileSync(path.join(FIXTURES, '01-ts-while-reader-cancel-return', 'drain-body.ts'), 'utf8');

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

/** Runs a command line in bash (`-e -o pipefail`), as a user types it. */
function shell(script: string, cwd: string): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const dryPrintThenApply = `node "${CLI}" fix --dry --print > p.diff && git apply p.diff`;

/** A git repository (one commit) holding a client package with two early closes. */
function monorepo(): string {
  const repo = tempProject({
    'packages/client/src/stream.ts': tsClient.input,
    'packages/client/src/legacy.ts': otherClient.input,
    'packages/server/README.md': 'the server\n',
  });
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'init');
  return repo;
}

function expectClientFixed(repo: string): void {
  expect(readFileSync(path.join(repo, 'packages/client/src/stream.ts'), 'utf8')).toBe(tsClient.output);
  expect(readFileSync(path.join(repo, 'packages/client/src/legacy.ts'), 'utf8')).toBe(otherClient.output);
  expect(readFileSync(path.join(repo, 'packages/client/src/drain-body.ts'), 'utf8')).toBe(helperModule);
}

const headerLines = (patch: string): string[] => patch.split('\n').filter((line) => /^(---|\+\+\+) /.test(line));

describe('drainguard fix --dry --print > p.diff && git apply p.diff', () => {
  it('applies where it is typed, also in a subdirectory of a git work tree; stdout holds only the diffs', () => {
    const repo = monorepo();
    const client = path.join(repo, 'packages/client');
    const run = shell(dryPrintThenApply, client);
    expect(run.code, run.stderr).toBe(0);
    const patch = readFileSync(path.join(client, 'p.diff'), 'utf8');
    // In a subdirectory git apply reads the paths relative to it, so they are relative to it here.
    // The helper module the rewrites import comes first, as a new file, then its test.
    expect(headerLines(patch)).toEqual([
      '--- /dev/null',
      '+++ b/src/drain-body.ts',
      '--- /dev/null',
      '+++ b/src/drain-body.test.ts',
      '--- a/src/legacy.ts',
      '+++ b/src/legacy.ts',
      '--- a/src/stream.ts',
      '+++ b/src/stream.ts',
    ]);
    expect(patch.startsWith('--- /dev/null\n+++ b/src/drain-body.ts\n@@ -0,0 +1,')).toBe(true);
    expect(patch).not.toContain('fixed');
    expect(run.stderr).toContain('2 sites: 2 fixed, 0 manual, 0 errors (dry run: nothing written)');
    expectClientFixed(repo);
    expect(git(repo, 'status', '--porcelain')).toBe(
      ' M packages/client/src/legacy.ts\n M packages/client/src/stream.ts\n?? packages/client/p.diff\n?? packages/client/src/drain-body.test.ts\n?? packages/client/src/drain-body.ts\n',
    );
  });

  it('for files outside the working directory, writes paths relative to the top of their work tree (not ../)', () => {
    const repo = monorepo();
    const server = path.join(repo, 'packages/server');
    const run = shell(`node "${CLI}" fix --dry --print ../client > ../../p.diff`, server);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`the diff paths are relative to ${repo} (not every file is under this directory): apply the diff there.`);
    const patch = readFileSync(path.join(repo, 'p.diff'), 'utf8');
    expect(headerLines(patch)).toEqual([
      '--- /dev/null',
      '+++ b/packages/client/src/drain-body.ts',
      '--- /dev/null',
      '+++ b/packages/client/src/drain-body.test.ts',
      '--- a/packages/client/src/legacy.ts',
      '+++ b/packages/client/src/legacy.ts',
      '--- a/packages/client/src/stream.ts',
      '+++ b/packages/client/src/stream.ts',
    ]);
    const applied = shell('git apply p.diff', repo);
    expect(applied.code, applied.stderr).toBe(0);
    expectClientFixed(repo);
  });

  it('outside git, writes paths relative to the common directory of the working directory and the files', () => {
    const root = tempProject({ 'client/stream.ts': tsClient.input, 'tools/.keep': '' });
    const run = shell(`node "${CLI}" fix --dry --print ../client > ../p.diff`, path.join(root, 'tools'));
    expect(run.code, run.stderr).toBe(0);
    expect(headerLines(readFileSync(path.join(root, 'p.diff'), 'utf8'))).toEqual([
      '--- /dev/null',
      '+++ b/client/drain-body.ts',
      '--- /dev/null',
      '+++ b/client/drain-body.test.ts',
      '--- a/client/stream.ts',
      '+++ b/client/stream.ts',
    ]);
    expect(readFileSync(path.join(root, 'client/stream.ts'), 'utf8')).toBe(tsClient.input);

    const applied = shell('git apply p.diff', root);
    expect(applied.code, applied.stderr).toBe(0);
    expect(readFileSync(path.join(root, 'client/stream.ts'), 'utf8')).toBe(tsClient.output);
    expect(readFileSync(path.join(root, 'client/drain-body.ts'), 'utf8')).toBe(helperModule);
    expect(readFileSync(path.join(root, 'client/drain-body.test.ts'), 'utf8')).toContain("from './drain-body.js';\n");
  });
});

describe('drainguard fix --print --json', () => {
  it('adds to each changed file (the new helper module too) a `diff` field, the same patch --print shows', async () => {
    const dir = tempProject({ 'src/stream.ts': tsClient.input, 'src/clean.ts': tsClient.output });
    const json = await runCli(['fix', '--dry', '--print', '--json'], dir);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { files: { path: string; changed: boolean; diff?: string }[] };
    expect(report.files.map((file) => path.relative(dir, file.path))).toEqual(['src/drain-body.ts', 'src/drain-body.test.ts', 'src/stream.ts']);
    const printed = await runCli(['fix', '--dry', '--print'], dir);
    expect(report.files[0].diff).toMatch(/^-{3} \/dev\/null\n\+{3} b\/src\/drain-body\.ts\n@@ /);
    expect(report.files[1].diff).toMatch(/^-{3} \/dev\/null\n\+{3} b\/src\/drain-body\.test\.ts\n@@ /);
    expect(report.files[2].diff).toMatch(/^-{3} a\/src\/stream\.ts\n\+{3} b\/src\/stream\.ts\n@@ /);
    expect(report.files.map((file) => `${file.diff!}\n`).join('')).toBe(printed.stdout);

    const withoutPrint = JSON.parse((await runCli(['fix', '--dry', '--json'], dir)).stdout) as { files: Record<string, unknown>[] };
    expect(withoutPrint.files[0]).not.toHaveProperty('diff');
  });
});

describe('drainguard fix on a terminal', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('erases the progress line before it prints the diffs', () => {
    const dir = tempProject({ 'a.ts': tsClient.input, 'b.ts': otherClient.input });
    const tty = spawnSync('script', ['-qec', `"${process.execPath}" "${CLI}" fix --dry --print`, '/dev/null'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
    });
    expect(tty.status).toBe(0);
    const screen = tty.stdout;
    expect(screen).toContain('[1/2] a.ts');
    // The diffs (the helper module's and its test's, then each file's) come after every file is rewritten, right after
    // an erase of the line: the progress text is gone, not drawn over.
    const headers = [...screen.matchAll(/--- (a\/|\/dev\/null)/g)].map((match) => match.index);
    expect(headers).toHaveLength(4);
    expect(screen.slice(headers[0] - 5, headers[0])).toBe('\r\u001b[2K');
    expect(screen.slice(headers[0])).not.toContain('[2/2]');
  });
});

describe('drainguard fix --version', () => {
  it('prints the package version and exits 0, touching nothing', async () => {
    const dir = tempProject({ 'a.ts': tsClient.input });
    const run = await runCli(['fix', '--version'], dir);
    expect(run).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    expect(readFileSync(path.join(dir, 'a.ts'), 'utf8')).toBe(tsClient.input);
  });
});
