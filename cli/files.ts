import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { gitVisibleFiles } from './git.js';

/** The file extensions drainguard lints. */
export const LINTABLE_EXTENSIONS: readonly string[] = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.py'];

const DECLARATION_FILE = /\.d\.[mc]?ts$/;
/** A walked file's name: a lintable extension, in the case written above (as a glob `*.js` matches). */
const WALKED_NAME = new RegExp(`(?:${LINTABLE_EXTENSIONS.map((ext) => ext.replace('.', '\\.')).join('|')})$`);
const ALWAYS_SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git']);

export interface CollectedFiles {
  /** Absolute paths, sorted, without duplicates. */
  files: string[];
  /** The files named on the command line (not found by walking a directory): they are always parsed. */
  named: Set<string>;
  /** Arguments (as given) that name nothing on disk. */
  missing: string[];
  /** Files named explicitly whose extension drainguard does not lint (as given). */
  unsupported: string[];
}

export function isLintablePath(file: string): boolean {
  return LINTABLE_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

export function isDeclarationFile(file: string): boolean {
  return DECLARATION_FILE.test(file.toLowerCase());
}

/**
 * Walks a directory for lintable files: skips declaration files, `node_modules` and `.git`
 * below it, and files git ignores (when the directory is in a git work tree and not itself
 * ignored). A directory that lies inside `node_modules` is walked without the git filter.
 */
export async function walkDirectory(dir: string): Promise<string[]> {
  const files: string[] = [];
  walkInto(dir, files);
  const insideNodeModules = dir.split(path.sep).includes('node_modules');
  const visible = insideNodeModules ? undefined : await gitVisibleFiles(dir);
  return visible ? files.filter((file) => visible.has(file)) : files;
}

/**
 * The walk itself, depth first, with Node's own `readdirSync`: a fixed rule (lintable extensions, two
 * directory names skipped, declaration files left out) needs no glob library, and loading one (tinyglobby with
 * picomatch) cost ~30 ms, a twentieth of a pre-commit run. Dot files and dot directories are walked; symbolic links
 * are neither followed nor listed (a file reached through one is linted where it lies); an unreadable directory is
 * skipped. `dir` is absolute and normalized, so a path is built only for what is kept or walked, by concatenation:
 * `path.join` for every entry (it normalizes each one) took 0.3 s of a 3.4 s run over the corpus's 20,027 files.
 */
function walkInto(dir: string, found: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  for (const entry of entries) {
    const name = entry.name;
    if (entry.isDirectory()) {
      if (!ALWAYS_SKIPPED_DIRECTORIES.has(name)) walkInto(prefix + name, found);
    } else if (entry.isFile() && WALKED_NAME.test(name) && !isDeclarationFile(name)) {
      found.push(prefix + name);
    }
  }
}

/**
 * Resolves CLI path arguments (relative to `cwd`; none means `.`) to the files to process.
 * A file named explicitly is always kept (even inside `node_modules`, git-ignored, or a
 * declaration file) as long as its extension is lintable; a directory is walked.
 */
export async function collectFiles(paths: readonly string[], cwd: string): Promise<CollectedFiles> {
  const files = new Set<string>();
  const named = new Set<string>();
  const missing: string[] = [];
  const unsupported: string[] = [];
  for (const given of paths.length > 0 ? paths : ['.']) {
    const absolute = path.resolve(cwd, given);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      missing.push(given);
    } else if (info.isDirectory()) {
      for (const file of await walkDirectory(absolute)) files.add(file);
    } else if (info.isFile() && isLintablePath(absolute)) {
      files.add(absolute);
      named.add(absolute);
    } else {
      unsupported.push(given);
    }
  }
  return { files: [...files].sort(), named, missing, unsupported };
}

/**
 * `collectFiles` for a subcommand: names each missing path and each skipped file on stderr.
 * Returns null when a path is missing (the command then exits 2 without processing anything).
 */
export async function collectTargetsOrReport(command: string, paths: readonly string[], cwd: string): Promise<Pick<CollectedFiles, 'files' | 'named'> | null> {
  const { files, named, missing, unsupported } = await collectFiles(paths, cwd);
  for (const given of missing) process.stderr.write(`drainguard ${command}: no such file or directory: ${given}\n`);
  if (missing.length > 0) return null;
  for (const given of unsupported) {
    process.stderr.write(`drainguard ${command}: skipping ${given}: not a ${LINTABLE_EXTENSIONS.join(' ').replace(/ (?=\S+$)/, ' or ')} file\n`);
  }
  return { files, named };
}
