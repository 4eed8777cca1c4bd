import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { HELPER_MODULE_NAME, readHelperModule, type HelperModule } from '../../rules/fix/helper-module.js';
import { isTypeScriptPath } from '../../rules/parser-options.js';
import { commonAncestor } from './diff-paths.js';
import { git } from '../shared/git.js';

/** The module some of a run's rewritten files import: where it is, and what it holds already (null: it is created). */
export interface HelperChoice {
  path: string;
  existing: HelperModule | null;
  /** Set by --helper-path or found from an earlier run: it stays where it is, whichever files change. */
  fixed: boolean;
  /** The files of the run that import it (one package's). */
  files: string[];
}

/** `.ts` where a TypeScript file is among `files`; else `.mjs` where all are `.mjs`; else `.js`. */
export function helperExtension(files: readonly string[]): string {
  if (files.some(isTypeScriptPath)) return '.ts';
  return files.length > 0 && files.every((file) => file.endsWith('.mjs')) ? '.mjs' : '.js';
}

/**
 * The run's helper modules for the JavaScript/TypeScript `files`: the one `--helper-path` names, for all of them (a
 * directory gets drain-body.<ext>, a name without extension gets one); else one per package (the files under the
 * same package.json): the one an earlier run wrote in the same language (in the files' common directory or above it,
 * or elsewhere in their package, the nearest first), else `<common directory>/drain-body.<ext>` (not `fixed`: the
 * caller places it at the common directory of the files that do change). An error where the named path is a file
 * drainguard did not write.
 */
export async function chooseHelperModules(files: readonly string[], helperPath: string | undefined, cwd: string): Promise<HelperChoice[] | { error: string }> {
  if (helperPath !== undefined) {
    let file = path.resolve(cwd, helperPath);
    const extension = helperExtension(files);
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, `${HELPER_MODULE_NAME}${extension}`);
    else if (path.extname(file) === '') file = `${file}${extension}`;
    const existing = readHelperModule(file);
    if (existing === 'foreign') return { error: `--helper-path ${helperPath}: ${path.relative(cwd, file) || file} exists and is not a helper module drainguard fix wrote (it declares no DRAIN_LIMITS); name another file.` };
    return [{ path: file, existing, fixed: true, files: [...files] }];
  }
  const byPackage = new Map<string, string[]>();
  for (const file of files) {
    const root = packageRoot(path.dirname(file));
    byPackage.set(root, [...(byPackage.get(root) ?? []), file]);
  }
  const choices: HelperChoice[] = [];
  for (const inPackage of byPackage.values()) {
    const extension = helperExtension(inPackage);
    const common = commonAncestor(inPackage.map((file) => path.dirname(file)));
    const earlier = await earlierHelperModule(common, extension);
    choices.push(earlier ? { path: earlier.path, existing: earlier, fixed: true, files: inPackage } : { path: path.join(common, `${HELPER_MODULE_NAME}${extension}`), existing: null, fixed: false, files: inPackage });
  }
  return choices;
}

/** The directory of the nearest package.json up from `dir` (its own where it has one), or '' outside any package. */
function packageRoot(dir: string): string {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    if (path.dirname(current) === current) return '';
  }
}

/** Directories that hold test data, not the code a helper module serves (drainguard's own fixtures hold modules). */
const TEST_DATA = /(^|\/)(test|tests|__tests__|fixtures|__fixtures__|testdata)\//;

/**
 * A helper module an earlier run wrote: in `dir` or above it (up to the work tree's top), else elsewhere in the same
 * package (the directory of the nearest package.json, else the work tree) outside test data, the nearest first.
 */
async function earlierHelperModule(dir: string, extension: string): Promise<HelperModule | null> {
  const name = `${HELPER_MODULE_NAME}${extension}`;
  const top = await git(['rev-parse', '--show-toplevel'], dir);
  const root = top.code === 0 ? top.stdout.trim() : null;
  const candidates: string[] = [];
  let packageRoot: string | null = null;
  for (let current = dir; ; current = path.dirname(current)) {
    candidates.push(path.join(current, name));
    packageRoot ??= existsSync(path.join(current, 'package.json')) ? current : null;
    if (current === root || path.dirname(current) === current) break;
  }
  const within = packageRoot ?? root;
  if (root && within) {
    const listed = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', `:(glob)**/${name}`], within);
    const inPackage = listed.stdout
      .split('\0')
      .filter((entry) => entry !== '' && !TEST_DATA.test(entry))
      .map((entry) => path.join(within, entry));
    inPackage.sort((a, b) => distance(dir, a) - distance(dir, b));
    candidates.push(...inPackage);
  }
  for (const candidate of candidates) {
    const module = readHelperModule(candidate);
    if (module && module !== 'foreign') return module;
  }
  return null;
}

function distance(dir: string, file: string): number {
  return path.relative(dir, path.dirname(file)).split(path.sep).filter((part) => part !== '').length;
}
