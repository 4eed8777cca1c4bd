import { realpathSync } from 'node:fs';
import path from 'node:path';
import { git } from '../shared/git.js';

/**
 * The files among `files` (absolute paths) that have uncommitted changes (modified or staged; a file git does not track
 * has no committed version to compare with and is not one). Files outside git, or where git is not installed, are
 * clean by definition: `fix` proceeds there.
 */
export async function dirtyFiles(files: readonly string[]): Promise<string[]> {
  const byRoot = new Map<string, string[]>();
  const roots = new Map<string, string | null>();
  for (const file of files) {
    const dir = path.dirname(file);
    if (!roots.has(dir)) {
      const top = await git(['rev-parse', '--show-toplevel'], dir);
      roots.set(dir, top.code === 0 ? top.stdout.trim() : null);
    }
    const root = roots.get(dir);
    if (root) byRoot.set(root, [...(byRoot.get(root) ?? []), file]);
  }
  const dirty: string[] = [];
  for (const [root, inRoot] of byRoot) {
    // git names files from its top level with symbolic links resolved.
    const relative = new Map(inRoot.map((file) => [path.relative(root, realPath(file)).split(path.sep).join('/'), file]));
    const status = await git(['status', '--porcelain', '-z', '--untracked-files=no', '--', ...relative.keys()], root);
    if (status.code !== 0) continue;
    for (const entry of status.stdout.split('\0')) {
      const file = relative.get(entry.slice(3));
      if (file) dirty.push(file);
    }
  }
  return dirty.sort();
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
