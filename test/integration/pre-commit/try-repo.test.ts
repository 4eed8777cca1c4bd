// The hook of .pre-commit-hooks.yaml through Debian's pre-commit, the way a user tries it before
// adding it to .pre-commit-config.yaml: `pre-commit try-repo <this repository> drainguard` on the
// staged files of a fresh repository. pre-commit clones the repository, `npm install`s it (which
// runs `postprepare`: the build), `npm pack`s it (`prepack`: the build again) and installs the tarball into the hook environment.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, copyWorkTree, describeRun, fixture, run, userEnv, workTreeIsClean } from '../packaging/support.js';

const RULE_ID = 'drainguard/no-early-stream-close';
const version = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const missing = version.error || version.status !== 0 ? 'pre-commit is not installed (apt-get install pre-commit)' : undefined;
if (missing) console.log(`skipping the pre-commit try-repo tests: ${missing}`);

const early = { ts: fixture('01-ts-while-reader-cancel-return'), js: fixture('02-js-while-reader-cancel-break') };
const pythonFixture = (name: string, file: string) => readFileSync(join(ROOT, 'fixtures', 'python', name, file), 'utf8');
// A Python transport (shape 2 of the Python front end: aclose() and break after the reply), its site, and its fixed twin.
const earlyPython = { input: pythonFixture('02-aconnect-sse-break', 'input.py'), output: pythonFixture('02-aconnect-sse-break', 'output.py'), line: 12, column: 23 };
// The JS fixture as CommonJS (same lines up to the site, so the same position).
const earlyCommonJs = `${early.js.input.replace(/^export async function (\w+)/, 'async function $1')}module.exports = { collect };\n`;
const work = mkdtempSync(join(tmpdir(), 'drainguard-pre-commit-'));
let hookRepo = ROOT;

afterAll(() => rmSync(work, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  run('git', ['-c', 'user.name=drainguard test', '-c', 'user.email=test@drainguard.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd });

beforeAll(async () => {
  if (missing || workTreeIsClean()) return;
  // try-repo runs a repository with uncommitted changes from a shadow commit of its tracked files
  // only. In a clean checkout (CI) the repository itself is used; in a work tree with changes a
  // commit of all of it, untracked files included, so new files are part of what is tried.
  console.log('pre-commit try-repo: the work tree has changes; trying a snapshot commit of it');
  hookRepo = join(work, 'snapshot');
  copyWorkTree(hookRepo);
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'snapshot of the work tree']]) {
    const result = await git(hookRepo, ...args);
    expect(result.code, describeRun(result)).toBe(0);
  }
}, 120_000);

/** A fresh git repository with these files staged; then `pre-commit try-repo <hookRepo> drainguard` on the staged files. */
async function tryRepo(name: string, files: Record<string, string>) {
  const repo = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  for (const args of [['init', '-q'], ['add', '.']]) {
    const result = await git(repo, ...args);
    expect(result.code, describeRun(result)).toBe(0);
  }
  return run('pre-commit', ['try-repo', '--color', 'never', hookRepo, 'drainguard'], {
    cwd: repo,
    env: userEnv({ PRE_COMMIT_HOME: join(work, `${name}-home`) }),
    timeoutMs: 580_000,
  });
}

// The two runs install the hook environment independently (try-repo uses a fresh store each time): run them side by side.
(missing ? describe.skip : describe.concurrent)('pre-commit try-repo drainguard', () => {
  it('fails on staged files with early closes and shows the findings; .d.ts and non-JS files are not passed', async () => {
    const result = await tryRepo('dirty', {
      'src/early.ts': early.ts.input,
      'src/early.mts': early.ts.input,
      'src/early.cts': early.ts.input,
      'src/early.tsx': early.ts.input,
      'src/early.js': early.js.input,
      'src/early.mjs': early.js.input,
      'src/early.cjs': earlyCommonJs,
      'src/early.jsx': early.js.input,
      'src/clean.ts': early.ts.output,
      'pkg/transport.py': earlyPython.input,
      'pkg/clean.py': earlyPython.output,
      // drainguard lints a file it is given explicitly even as .d.ts: the hook must not give it one.
      'src/early.d.ts': early.ts.input,
      'notes.md': early.js.input,
    });
    expect(result.code, describeRun(result)).toBe(1);
    expect(result.stdout).toMatch(/drainguard[^\n]*\.{3,}Failed/);
    expect(result.stdout).toContain('- hook id: drainguard');
    for (const ext of ['ts', 'mts', 'cts', 'tsx']) {
      expect(result.stdout, ext).toMatch(new RegExp(`src/early\\.${ext}\\n\\s+${early.ts.sites[0].line}:${early.ts.sites[0].column}\\s+error\\s.*${RULE_ID}`));
    }
    for (const ext of ['js', 'mjs', 'cjs', 'jsx']) {
      expect(result.stdout, ext).toMatch(new RegExp(`src/early\\.${ext}\\n\\s+${early.js.sites[0].line}:${early.js.sites[0].column}\\s+error\\s.*${RULE_ID}`));
    }
    expect(result.stdout).toMatch(new RegExp(`pkg/transport\\.py\\n\\s+${earlyPython.line}:${earlyPython.column}\\s+error\\s.*${RULE_ID}`));
    // pre-commit may split the files over several drainguard processes, each with its own summary.
    expect(result.stdout.split(RULE_ID).length - 1).toBe(9);
    expect(result.stdout).not.toContain('clean.py');
    expect(result.stdout).not.toContain('early.d.ts');
    expect(result.stdout).not.toContain('notes.md');
    expect(result.stdout).not.toContain('clean.ts');
  }, 600_000);

  it('passes on clean staged files', async () => {
    const result = await tryRepo('clean', {
      'src/clean.ts': early.ts.output,
      'src/clean.js': early.js.output,
      'pkg/clean.py': earlyPython.output,
      'src/types.d.ts': 'export declare function complete(url: string): Promise<string[]>;\n',
    });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toMatch(/drainguard[^\n]*\.{3,}Passed/);
  }, 600_000);
});
