import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from './errors.js';
import { gitIgnores, gitVisibleFiles } from './git.js';

const DECLARATION_FILE = /\.d\.[mc]?ts$/;
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
  /** Directories the walk could not read (and git does not ignore), each with the reason: their files were not checked. */
  unreadableDirectories: { path: string; reason: string }[];
}

/** Whether a file's extension is one of `extensions` (lower case, with the dot), case aside. */
function hasExtension(file: string, extensions: readonly string[]): boolean {
  return extensions.includes(path.extname(file).toLowerCase());
}

/** A walked file's name: one of `extensions`, in the case given (as a glob `*.js` matches). */
function walkedName(extensions: readonly string[]): RegExp {
  return new RegExp(`(?:${extensions.map((ext) => ext.replace('.', '\\.')).join('|')})$`);
}

export function isDeclarationFile(file: string): boolean {
  return DECLARATION_FILE.test(file.toLowerCase());
}

/**
 * Walks a directory for files with one of `extensions` (the front ends', cli/front-ends/registry.ts): skips declaration files, `node_modules` and `.git`
 * below it, and files git ignores (when the directory is in a git work tree and not itself
 * ignored). A directory that lies inside `node_modules` is walked without the git filter.
 * Directories that cannot be read are listed with the reason, unless git ignores them.
 */
export async function walkDirectory(dir: string, extensions: readonly string[]): Promise<{ files: string[]; unreadableDirectories: { path: string; reason: string }[] }> {
  const files: string[] = [];
  const unreadable: { path: string; reason: string }[] = [];
  walkInto(dir, walkedName(extensions), files, unreadable);
  const insideNodeModules = dir.split(path.sep).includes('node_modules');
  const visible = insideNodeModules ? undefined : await gitVisibleFiles(dir);
  if (!visible) return { files, unreadableDirectories: unreadable };
  const unreadableDirectories = [];
  for (const entry of unreadable) if (!(await gitIgnores(entry.path))) unreadableDirectories.push(entry);
  return { files: files.filter((file) => visible.has(file)), unreadableDirectories };
}

/**
 * The walk itself, depth first, with Node's own `readdirSync`: a fixed rule (the front ends' extensions, two
 * directory names skipped, declaration files left out) needs no glob library, whose loading a short pre-commit run
 * would feel. Dot files and dot directories are walked; symbolic links are neither followed nor listed (a file
 * reached through one is linted where it lies, and a link loop is no loop here); a directory that cannot be read is
 * listed in `unreadable`. `dir` is absolute and normalized, so a path is built only for what is kept or walked, by
 * concatenation: `path.join` for every entry normalizes each one, a cost a walk over many thousand files feels.
 */
function walkInto(dir: string, walked: RegExp, found: string[], unreadable: { path: string; reason: string }[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    unreadable.push({ path: dir, reason: error instanceof Error ? error.message : String(error) });
    return;
  }
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  for (const entry of entries) {
    const name = entry.name;
    if (entry.isDirectory()) {
      if (!ALWAYS_SKIPPED_DIRECTORIES.has(name)) walkInto(prefix + name, walked, found, unreadable);
    } else if (entry.isFile() && walked.test(name) && !isDeclarationFile(name)) {
      found.push(prefix + name);
    }
  }
}

/**
 * Resolves CLI path arguments (relative to `cwd`; none means `.`) to the files to process.
 * A file named explicitly is always kept (even inside `node_modules`, git-ignored, or a
 * declaration file) as long as its extension is one of `extensions`; a directory is walked.
 */
export async function collectFiles(paths: readonly string[], cwd: string, extensions: readonly string[]): Promise<CollectedFiles> {
  const files = new Set<string>();
  const named = new Set<string>();
  const missing: string[] = [];
  const unsupported: string[] = [];
  const unreadableDirectories: { path: string; reason: string }[] = [];
  for (const given of paths.length > 0 ? paths : ['.']) {
    const absolute = path.resolve(cwd, given);
    let info;
    try {
      info = await stat(absolute);
    } catch (error) {
      // Nothing there. Something there that cannot be looked at (a symbolic link loop, a directory on the way that
      // cannot be searched) is a file named explicitly: reading it reports why it cannot be read, and the run goes on.
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') missing.push(given);
      else {
        files.add(absolute);
        named.add(absolute);
      }
      continue;
    }
    if (info.isDirectory()) {
      const walked = await walkDirectory(absolute, extensions);
      for (const file of walked.files) files.add(file);
      unreadableDirectories.push(...walked.unreadableDirectories);
    } else if (info.isFile() && hasExtension(absolute, extensions)) {
      files.add(absolute);
      named.add(absolute);
    } else {
      unsupported.push(given);
    }
  }
  return { files: [...files].sort(), named, missing, unsupported, unreadableDirectories };
}

/**
 * `collectFiles` for a subcommand: names each missing path and each skipped file on stderr.
 * Returns null when a path is missing (the command then exits 2 without processing anything).
 */
export async function collectTargetsOrReport(
  command: string,
  paths: readonly string[],
  cwd: string,
  extensions: readonly string[],
): Promise<Pick<CollectedFiles, 'files' | 'named' | 'unreadableDirectories'> | null> {
  const { files, named, missing, unsupported, unreadableDirectories } = await collectFiles(paths, cwd, extensions);
  for (const given of missing) process.stderr.write(`drainguard ${command}: no such file or directory: ${given}\n`);
  if (missing.length > 0) return null;
  for (const given of unsupported) {
    process.stderr.write(`drainguard ${command}: skipping ${given}: not a ${extensions.join(' ').replace(/ (?=\S+$)/, ' or ')} file\n`);
  }
  for (const { path: dir, reason } of unreadableDirectories) {
    process.stderr.write(`drainguard ${command}: cannot read directory ${path.relative(cwd, dir) || '.'}: ${reason}; its files were not checked\n`);
  }
  return { files, named, unreadableDirectories };
}
