import { execFile } from 'node:child_process';
import path from 'node:path';

export function git(args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, maxBuffer: 1 << 28, encoding: 'utf8' }, (error, stdout) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout });
    });
  });
}

/**
 * The files under `dir` that git does not ignore (tracked, or untracked and not excluded by
 * .gitignore / info/exclude / the global excludes file), as absolute paths.
 *
 * Returns `undefined` — "do not filter" — when `dir` is not inside a git work tree, when git is
 * not installed, or when `dir` itself is ignored (a directory the user named explicitly is always
 * processed, even `dist/` or a folder inside `node_modules`).
 */
export async function gitVisibleFiles(dir: string): Promise<Set<string> | undefined> {
  const top = await git(['rev-parse', '--show-toplevel'], dir);
  if (top.code !== 0) return undefined;
  const root = top.stdout.trim();
  const relative = path.relative(root, dir);
  if (relative !== '') {
    const ignored = await git(['check-ignore', '-q', '--', `${relative.split(path.sep).join('/')}/`], root);
    if (ignored.code === 0) return undefined;
  }
  const listed = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], dir);
  if (listed.code !== 0) return undefined;
  // git lists paths relative to `dir`, normalized and with `/`: joined to it by concatenation, as the walk builds its
  // paths (files.ts), not by path.resolve per entry, which costs more than the listing on a repository of thousands of
  // files. (An untracked directory git lists keeps its trailing `/`: it matches no file, as before.)
  const base = path.resolve(dir);
  const prefix = base.endsWith(path.sep) ? base : base + path.sep;
  const files = new Set<string>();
  for (const entry of listed.stdout.split('\0')) {
    if (entry) files.add(prefix + (path.sep === '/' ? entry : entry.split('/').join(path.sep)));
  }
  return files;
}

/** Whether git ignores the directory `dir` (false outside a work tree or without git). */
export async function gitIgnores(dir: string): Promise<boolean> {
  const parent = path.dirname(dir);
  return (await git(['check-ignore', '-q', '--', `${path.basename(dir)}/`], parent)).code === 0;
}
