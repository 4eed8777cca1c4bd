import { git } from './git.js';

/**
 * The work trees (of `dirs`) that have uncommitted changes. Directories outside git, or where git
 * is not installed, are clean by definition: `fix` proceeds there.
 */
export async function dirtyWorkTrees(dirs: Iterable<string>): Promise<string[]> {
  const checked = new Map<string, boolean>();
  for (const dir of dirs) {
    const top = await git(['rev-parse', '--show-toplevel'], dir);
    if (top.code !== 0) continue;
    const root = top.stdout.trim();
    if (checked.has(root)) continue;
    const status = await git(['status', '--porcelain', '--untracked-files=no'], root);
    checked.set(root, status.code === 0 && status.stdout.trim() !== '');
  }
  return [...checked].filter(([, dirty]) => dirty).map(([root]) => root);
}
