// docs/recipes/pre-commit.md as written, in a fresh Python-only repository: the config block saved as
// .pre-commit-config.yaml, then the recipe's commands (`pre-commit autoupdate --freeze`, `install`, `run --all-files`),
// then commits through the installed hook. github.com is replaced by a commit of this work tree (the only change).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, copyWorkTree, describeRun, recipeBlock, recipeCommands, run, shell, userEnv } from '../packaging/support.js';

const RULE_ID = 'drainguard/no-early-stream-close';
const GITHUB = 'https://github.com/drainguard/drainguard';
const version = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const missing = version.error || version.status !== 0 ? 'pre-commit is not installed (apt-get install pre-commit)' : undefined;
if (missing) console.log(`skipping the pre-commit recipe test: ${missing}`);

const python = (file: string) => readFileSync(join(ROOT, 'fixtures/python/02-aconnect-sse-break', file), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'drainguard-pre-commit-recipe-'));
const hookRepo = join(work, 'drainguard');
const repo = join(work, 'python-sdk');
let head = '';
afterAll(() => rmSync(work, { recursive: true, force: true }));

const identity = { GIT_AUTHOR_NAME: 'drainguard test', GIT_AUTHOR_EMAIL: 'test@drainguard.invalid', GIT_COMMITTER_NAME: 'drainguard test', GIT_COMMITTER_EMAIL: 'test@drainguard.invalid' };
const env = () => userEnv({ PRE_COMMIT_HOME: join(work, 'pre-commit-home'), ...identity });
const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, env: env() });
/** A recipe line as typed, github.com's URL replaced by the local repository. */
const local = (text: string) => text.replaceAll(GITHUB, hookRepo);

beforeAll(async () => {
  if (missing) return;
  copyWorkTree(hookRepo);
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'drainguard']]) {
    const result = await git(hookRepo, ...args);
    expect(result.code, describeRun(result)).toBe(0);
  }
  head = (await git(hookRepo, 'rev-parse', 'HEAD')).stdout.trim();
  for (const [path, text] of Object.entries({ 'pkg/transport.py': python('input.py'), 'pkg/clean.py': python('output.py'), 'README.md': '# a Python SDK\n' })) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  // The repository's history: pre-commit's `run --all-files` checks the files git tracks.
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'the SDK']]) {
    const result = await git(repo, ...args);
    expect(result.code, describeRun(result)).toBe(0);
  }
}, 120_000);

(missing ? describe.skip : describe)('docs/recipes/pre-commit.md in a Python-only repository', () => {
  it('the config and the commands are what the recipe shows', () => {
    expect(recipeBlock('pre-commit.md', 'pre-commit-config')).toBe(`repos:\n  - repo: ${GITHUB}\n    rev: HEAD\n    hooks:\n      - id: drainguard\n`);
    expect(recipeCommands('pre-commit.md', 'pre-commit-commands')).toEqual([`pre-commit autoupdate --freeze --repo ${GITHUB}`, 'pre-commit install', 'pre-commit run --all-files']);
  });

  it('autoupdate pins rev to the commit SHA, install sets the hook, run reports the early close; commits are checked', async () => {
    writeFileSync(join(repo, '.pre-commit-config.yaml'), local(recipeBlock('pre-commit.md', 'pre-commit-config')));
    const [autoupdate, install, runAll] = recipeCommands('pre-commit.md', 'pre-commit-commands').map(local);

    const pinned = await shell(autoupdate, repo, env());
    expect(pinned.code, describeRun(pinned)).toBe(0);
    expect(pinned.stdout).toContain(`updating HEAD -> ${head}`);
    expect(readFileSync(join(repo, '.pre-commit-config.yaml'), 'utf8')).toBe(`repos:\n  - repo: ${hookRepo}\n    rev: ${head}\n    hooks:\n      - id: drainguard\n`);

    const installed = await shell(install, repo, env());
    expect(installed.code, describeRun(installed)).toBe(0);
    expect(installed.stdout).toContain('pre-commit installed at .git/hooks/pre-commit');

    const all = await run('bash', ['-c', runAll], { cwd: repo, env: env(), timeoutMs: 580_000 });
    expect(all.code, describeRun(all)).toBe(1);
    expect(all.stdout).toMatch(/drainguard[^\n]*\.{3,}Failed/);
    expect(all.stdout).toMatch(new RegExp(`pkg/transport\\.py\\n\\s+12:23\\s+error\\s.*${RULE_ID}`));
    expect(all.stdout).not.toContain('clean.py');

    // The installed hook checks what a commit stages: a new early close is refused, its drained twin goes through.
    writeFileSync(join(repo, 'pkg/resume.py'), python('input.py'));
    expect((await git(repo, 'add', '-A')).code).toBe(0);
    const refused = await git(repo, 'commit', '-q', '-m', 'resume');
    expect(refused.code, describeRun(refused)).toBe(1);
    // git gives a hook's output to stderr.
    expect(refused.stderr).toMatch(new RegExp(`pkg/resume\\.py\\n\\s+12:23\\s+error\\s.*${RULE_ID}`));
    expect(refused.stderr).not.toContain('pkg/transport.py');
    writeFileSync(join(repo, 'pkg/resume.py'), python('output.py'));
    expect((await git(repo, 'add', '-A')).code).toBe(0);
    const committed = await git(repo, 'commit', '-q', '-m', 'resume, drained');
    expect(committed.code, describeRun(committed)).toBe(0);
    expect(committed.stderr).toMatch(/drainguard[^\n]*\.{3,}Passed/);
  }, 600_000);
});
