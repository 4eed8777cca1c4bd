// The parts of scripts/sdk-suites.mjs that run processes: bounding a hung command, checking out a mirror without
// some blobs at the pinned commit, and running the repository's checks on the changed files before and after. No
// network: git runs on local repositories made here. The rest of the harness, in process:
// test/sdk-suites/harness.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../scripts/sdk-suites/run.mjs';
import { changedFiles, runChecks, runChecksBefore } from '../../../scripts/sdk-suites/checks.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('run', () => {
  it('kills a command that outlives its bound and says so', async () => {
    const result = await run(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { cwd: tmpdir(), timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
  });
});

/** A git repository in a temporary folder, with one commit of `files`. */
async function gitRepo(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-suites-git-'));
  dirs.push(dir);
  const git = async (...args: string[]) => {
    const result = await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, timeoutMs: 30_000 });
    if (result.code !== 0) throw new Error(result.stderr);
    return result.stdout.trim();
  };
  await git('init', '--quiet', '--initial-branch=main');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  await git('add', '.');
  await git('commit', '--quiet', '-m', 'pinned');
  return { dir, git, commit: await git('rev-parse', 'HEAD') };
}

describe('checkout', () => {
  it('clones a mirror at the pinned commit and leaves out files whose blobs the mirror lacks', async () => {
    const source = await gitRepo({ 'src/a.ts': 'export const a = 1;\n', 'fixtures/big.json': '{"big": true}\n' });
    const mirrors = mkdtempSync(join(tmpdir(), 'sdk-suites-mirrors-'));
    dirs.push(mirrors);
    // A bare mirror at <mirrors>/owner+tiny/repo without the blob of fixtures/big.json.
    await run('git', ['clone', '--quiet', '--bare', source.dir, join(mirrors, 'owner+tiny/repo')], { cwd: mirrors });
    const big = await source.git('rev-parse', 'HEAD:fixtures/big.json');
    unlinkSync(join(mirrors, 'owner+tiny/repo/objects', big.slice(0, 2), big.slice(2)));
    const cache = mkdtempSync(join(tmpdir(), 'sdk-suites-cache-'));
    dirs.push(cache);
    // CACHE_DIR is read when sdks.mjs loads: a fresh module graph with this cache.
    process.env.DRAINGUARD_SDK_SUITES_CACHE = cache;
    process.env.DRAINGUARD_SDK_MIRROR = `${mirrors}/{owner}+{name}/repo`;
    try {
      vi.resetModules();
      const { preparePristine } = await import('../../../scripts/sdk-suites/checkout.mjs');
      const logged: string[] = [];
      const dir = await preparePristine({ name: 'tiny', repo: 'owner/tiny', commit: source.commit }, (line) => logged.push(line));
      expect(dir).toBe(join(cache, 'tiny'));
      expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
      expect(existsSync(join(dir, 'fixtures/big.json'))).toBe(false);
      expect(logged).toContain('tiny: 1 file(s) absent from the mirror, left out of the checkout: fixtures/big.json');
      // A second run resets a rewrite and removes what it created.
      writeFileSync(join(dir, 'src/a.ts'), 'rewritten\n');
      writeFileSync(join(dir, 'src/helper.ts'), 'created\n');
      await preparePristine({ name: 'tiny', repo: 'owner/tiny', commit: source.commit }, () => {});
      expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
      expect(existsSync(join(dir, 'src/helper.ts'))).toBe(false);
      expect((await run('git', ['status', '--porcelain'], { cwd: dir })).stdout).toBe('');
    } finally {
      delete process.env.DRAINGUARD_SDK_SUITES_CACHE;
      delete process.env.DRAINGUARD_SDK_MIRROR;
      vi.resetModules();
    }
  });
});

describe('checks on the changed files', () => {
  it('runs each check on the changed files after the fix and on the same files before it, then puts the rewrite back', async () => {
    const repo = await gitRepo({ 'src/a.ts': 'const ok = 1;\n', 'src/b.ts': 'untouched\n' });
    writeFileSync(join(repo.dir, 'src/a.ts'), 'const ok = 1; // BAD\n');
    writeFileSync(join(repo.dir, 'src/drain.ts'), 'export {};\n');
    // A check in the repository's style: names each file it was given, fails on a file containing BAD.
    const script = "const fs = require('fs'); let bad = 0; for (const f of process.argv.slice(1)) { const b = fs.readFileSync(f, 'utf8').includes('BAD'); bad += b; console.log(f + (b ? ': BAD' : ': ok')); } process.exit(bad ? 1 : 0);";
    const checks = [{ name: 'no-bad', command: [process.execPath, '-e', script] }];
    const files = await changedFiles(repo.dir);
    expect(files).toEqual([
      { path: 'src/a.ts', created: false },
      { path: 'src/drain.ts', created: true },
    ]);
    const after = await runChecks(checks, repo.dir, files.map((f) => f.path), process.env);
    const before = await runChecksBefore(checks, repo.dir, files, process.env);
    expect(after).toEqual([{ name: 'no-bad', code: 1, timedOut: false, output: 'src/a.ts: BAD\nsrc/drain.ts: ok\n', files: ['src/a.ts', 'src/drain.ts'] }]);
    expect(before).toEqual([{ name: 'no-bad', code: 0, timedOut: false, output: 'src/a.ts: ok\n', files: ['src/a.ts'] }]);
    expect(readFileSync(join(repo.dir, 'src/a.ts'), 'utf8')).toBe('const ok = 1; // BAD\n');
    expect(readFileSync(join(repo.dir, 'src/drain.ts'), 'utf8')).toBe('export {};\n');
    // A fix that changed nothing: nothing to stash, no check run.
    await repo.git('checkout', '--', '.');
    await repo.git('clean', '-fdq');
    expect(await changedFiles(repo.dir)).toEqual([]);
    expect(await runChecksBefore(checks, repo.dir, [], process.env)).toEqual([{ name: 'no-bad', code: null, timedOut: false, output: '', files: [] }]);
  });
});
