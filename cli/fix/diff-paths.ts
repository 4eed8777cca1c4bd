import { realpathSync } from 'node:fs';
import path from 'node:path';
import { git } from '../shared/git.js';

/**
 * Where the paths in `fix --print`'s diff headers (`a/<path>`) start, so that `git apply` takes
 * the diff: the working directory when it holds every file (`git apply` there works, in a work
 * tree or not: in a subdirectory of a work tree git reads the paths relative to it); else the top
 * level of the git work tree that holds them all (where `git diff` puts its paths); else the
 * deepest directory that holds the working directory and every file.
 */
export async function diffRoot(cwd: string, files: readonly string[]): Promise<{ root: string; isCwd: boolean }> {
  const here = realPath(cwd);
  const dirs = [...new Set(files.map((file) => path.dirname(realPath(file))))];
  if (dirs.every((dir) => isInside(dir, here))) return { root: here, isCwd: true };
  const topLevels = new Set(await Promise.all(dirs.map(topLevel)));
  const [only] = topLevels;
  return { root: topLevels.size === 1 && only ? only : commonAncestor([here, ...dirs]), isCwd: false };
}

/** The header path of `file` for a diff rooted at `root` (forward slashes). */
export function diffPath(root: string, file: string): string {
  return path.relative(root, realPath(file)).split(path.sep).join('/');
}

async function topLevel(dir: string): Promise<string | null> {
  const { code, stdout } = await git(['rev-parse', '--show-toplevel'], dir);
  return code === 0 ? realPath(stdout.trim()) : null;
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function isInside(dir: string, root: string): boolean {
  const relative = path.relative(root, dir);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The deepest directory that contains every one of the given absolute directories. */
export function commonAncestor(dirs: readonly string[]): string {
  let common = dirs[0];
  for (const dir of dirs.slice(1)) while (!isInside(dir, common)) common = path.dirname(common);
  return common;
}
