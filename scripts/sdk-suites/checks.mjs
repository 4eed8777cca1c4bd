// What a maintainer's own tooling says about the files the fix changed: the repository's lint and
// format checks run on exactly those files after the fix and, on the same files, before it (the
// committed text put back for that run), and how much each file grew and how long its lines got.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { run } from './run.mjs';

/**
 * Files the fix changed or created, relative to the checkout (a created helper module included).
 * @param {string} dir
 */
export async function changedFiles(dir) {
  const status = await run('git', ['status', '--porcelain', '-z', '--untracked-files=all'], { cwd: dir });
  return parsePorcelain(status.stdout);
}

/**
 * `git status --porcelain -z` entries that exist after the change: modified, added, untracked.
 * @param {string} output
 * @returns {{ path: string, created: boolean }[]}
 */
export function parsePorcelain(output) {
  const out = [];
  const entries = output.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    const file = entry.slice(3);
    if (code[0] === 'R' || code[0] === 'C') i++; // the source path follows
    if (code.includes('D')) continue;
    out.push({ path: file, created: code === '??' || code[0] === 'A' });
  }
  return out;
}

/**
 * The longest line of a text (in UTF-16 units, as formatters count print width) and its line count.
 * @param {string} text
 */
export function lineStats(text) {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return { lines: lines.length, longest: lines.reduce((max, line) => Math.max(max, line.length), 0) };
}

/**
 * @param {string} dir
 * @param {{ path: string, created: boolean }[]} files
 * @returns {Promise<{ path: string, created: boolean, before: { lines: number, longest: number } | null, after: { lines: number, longest: number } }[]>}
 */
export async function fileStats(dir, files) {
  return Promise.all(
    files.map(async (file) => {
      const after = lineStats(await readFile(path.join(dir, file.path), 'utf8'));
      if (file.created) return { ...file, before: null, after };
      const original = await run('git', ['show', `HEAD:${file.path}`], { cwd: dir });
      return { ...file, before: lineStats(original.stdout), after };
    }),
  );
}

/**
 * @typedef {{ name: string, code: number | null, timedOut: boolean, output: string, files: string[] }} CheckResult
 */

/**
 * Runs each check on `files` (paths relative to the checkout, appended to its command).
 * @param {import('./sdks.mjs').Check[]} checks @param {string} dir @param {string[]} files @param {NodeJS.ProcessEnv} env
 * @returns {Promise<CheckResult[]>}
 */
export async function runChecks(checks, dir, files, env) {
  const results = [];
  for (const check of checks) {
    if (files.length === 0) {
      results.push({ name: check.name, code: null, timedOut: false, output: '', files });
      continue;
    }
    const [command, ...args] = check.command;
    const result = await run(command, [...args, ...files], { cwd: dir, env, timeoutMs: 10 * 60_000 });
    results.push({ name: check.name, code: result.code, timedOut: result.timedOut, output: stripAnsi(result.stdout + result.stderr).slice(0, 40_000), files });
  }
  return results;
}

/**
 * The same checks on the same files before the fix: each changed file is put back as the commit has
 * it (a created one removed), the files that existed are checked, and the rewrite is written back.
 * No `git stash`: it writes trees, which fails in a checkout that leaves absent blobs out.
 * @param {import('./sdks.mjs').Check[]} checks @param {string} dir
 * @param {{ path: string, created: boolean }[]} files @param {NodeJS.ProcessEnv} env
 */
export async function runChecksBefore(checks, dir, files, env) {
  if (files.length === 0) return runChecks(checks, dir, [], env);
  const rewritten = await Promise.all(files.map(async (file) => ({ ...file, text: await readFile(path.join(dir, file.path)) })));
  try {
    for (const file of rewritten) {
      if (file.created) {
        await rm(path.join(dir, file.path));
        continue;
      }
      const original = await run('git', ['show', `HEAD:${file.path}`], { cwd: dir });
      if (original.code !== 0) throw new Error(`git show HEAD:${file.path} failed in ${dir}: ${original.stderr}`);
      await writeFile(path.join(dir, file.path), original.stdout);
    }
    return await runChecks(checks, dir, files.filter((file) => !file.created).map((file) => file.path), env);
  } finally {
    for (const file of rewritten) await writeFile(path.join(dir, file.path), file.text);
  }
}

/** @param {string} text */
export function stripAnsi(text) {
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
