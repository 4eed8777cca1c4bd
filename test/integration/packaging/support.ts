import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const FIXTURES = join(ROOT, 'fixtures');
export const RECIPES = join(ROOT, 'docs/recipes');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: without the npm_* variables `npm test` exports (they would
 * configure the npm and npx the tests start) and without color.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'FORCE_COLOR' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

/** Runs a command to completion; never throws on a non-zero exit. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a recipe's shell text the way a user pastes it (bash, stop at the first failing command like GitHub Actions' default shell). */
export function shell(script: string, cwd: string, env?: NodeJS.ProcessEnv): Promise<RunResult> {
  return run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
}

export function describeRun(result: RunResult): string {
  return `exit ${String(result.code)}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/**
 * The fenced code block that follows `<!-- recipe-test: <label> -->` in docs/recipes/<file>: the
 * tests run the recipes' text itself, so what the docs show is what is tested.
 */
export function recipeBlock(file: string, label: string): string {
  const text = readFileSync(join(RECIPES, file), 'utf8').replace(/\r\n/g, '\n');
  const marker = `<!-- recipe-test: ${label} -->`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`docs/recipes/${file} has no block labelled ${label}`);
  const match = /^```[^\n]*\n([\s\S]*?)^```\s*$/m.exec(text.slice(at + marker.length));
  if (!match) throw new Error(`docs/recipes/${file}: no code block after ${marker}`);
  return match[1];
}

/** The file a config recipe names in its first line (`// eslint.config.mjs`). */
export function recipeFileName(block: string): string {
  const name = /^\/\/ ([\w.-]+)\n/.exec(block)?.[1];
  if (!name) throw new Error(`the recipe does not start with a comment naming its file:\n${block}`);
  return name;
}

/** A shell recipe's commands, one per line, without comments and blank lines. */
export function recipeCommands(file: string, label: string): string[] {
  return recipeBlock(file, label)
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').replace(/^#.*$/, '').trim())
    .filter(Boolean);
}

/** A fixture's input and expected (codemod) output texts. */
export function fixture(name: string): { input: string; output: string; ext: string; sites: { line: number; column: number }[] } {
  const dir = join(FIXTURES, name);
  const ext = ['.ts', '.js', '.tsx', '.jsx', '.mts', '.cts', '.mjs', '.cjs'].find((candidate) => existsSync(join(dir, `input${candidate}`)));
  if (!ext) throw new Error(`fixture ${name} has no input file`);
  return {
    ext,
    input: readFileSync(join(dir, `input${ext}`), 'utf8'),
    output: readFileSync(join(dir, `output${ext}`), 'utf8'),
    sites: JSON.parse(readFileSync(join(dir, 'sites.json'), 'utf8')) as { line: number; column: number }[],
  };
}

/**
 * Copies what a commit of the work tree would contain (tracked and untracked, not ignored files,
 * as they are on disk) to dest. Builds and installs run there, never in the repository, so they do
 * not rewrite the dist/ other test files are running.
 */
export function copyWorkTree(dest: string): void {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  for (const relative of listing.toString('utf8').split('\0')) {
    if (!relative) continue;
    const from = join(ROOT, relative);
    if (!existsSync(from) || !lstatSync(from).isFile()) continue; // deleted in the work tree, or a symlink/submodule
    mkdirSync(dirname(join(dest, relative)), { recursive: true });
    copyFileSync(from, join(dest, relative));
  }
}

/** Whether the repository has no uncommitted changes and no untracked, not ignored files. */
export function workTreeIsClean(): boolean {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: ROOT }).toString().trim() === '';
}
