import path from 'node:path';
import { HELPER_MODULE_NAME } from '../../rules/fix/helper-module.js';
import { styleSettingsFor, type StyleSettings } from '../../rules/fix/style.js';
import type { DrainBounds } from '../../rules/contract/drain-options.js';
import { settled } from '../front-ends/javascript-prefilter.js';
import { frontEndOf } from '../front-ends/registry.js';
import { problemLine, readSourceText } from '../shared/source-text.js';
import type { FixArgs } from './args.js';
import { commonAncestor } from './diff-paths.js';
import { boundsOf, type FixRun } from './fix-run.js';
import { formatterProblem } from './formatter.js';
import { helperExtension, type HelperChoice } from './helper-choice.js';
import type { InMemory, Rewritten } from './in-memory.js';

/** Reads and rewrites the run's files in memory, one after the other, until Ctrl-C; nothing is written yet. */
export async function rewriteFiles(run: FixRun, work: InMemory): Promise<void> {
  for (const file of run.files) {
    if (run.signal.aborted) break;
    work.scanned++;
    run.progress.show(`[${work.scanned}/${run.files.length}] ${path.relative(run.cwd, file)}`);
    const choice = run.choiceOf.get(file);
    const result = await rewriteFile(file, run.args, boundsOf(run.args, choice), choice?.path, run.named.has(file), run.signal);
    if (result) work.rewritten.push(result);
    // Reads are synchronous (cli/shared/source-text.ts): let a Ctrl-C in between files be heard.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A new helper module goes to the common directory of its package's files that change (not of every file scanned):
 * where that is not where the rewrite assumed it, those files are rewritten again for its path.
 */
export async function placeHelperModules(run: FixRun, rewritten: Rewritten[]): Promise<void> {
  if (run.signal.aborted) return;
  for (const choice of run.choices) await placeHelperModule(choice, rewritten, run.args, boundsOf(run.args, choice), run.signal);
}

async function placeHelperModule(helper: HelperChoice, rewritten: Rewritten[], args: FixArgs, bounds: DrainBounds, signal: AbortSignal): Promise<void> {
  if (helper.fixed) return;
  const changed = rewritten.filter((entry) => entry.output !== null && helper.files.includes(entry.file));
  if (changed.length === 0) return;
  const placed = path.join(commonAncestor(changed.map((entry) => path.dirname(entry.file))), `${HELPER_MODULE_NAME}${helperExtension(changed.map((entry) => entry.file))}`);
  if (placed === helper.path) return;
  helper.path = placed;
  for (const entry of changed) {
    if (signal.aborted) return;
    const again = await rewriteFile(entry.file, args, bounds, placed, false, signal);
    if (again) Object.assign(entry, again);
  }
}

/**
 * The rewrite of one file in memory by its front end (null for a file that holds no site). A file named on the command
 * line is always parsed, as `lint` parses it, so that a syntax error in it is reported instead of passing as a file
 * without sites.
 */
async function rewriteFile(file: string, args: FixArgs, bounds: DrainBounds, helperModule: string | undefined, named: boolean, signal: AbortSignal): Promise<Rewritten | null> {
  // Never a lossy decode: a binary or non-UTF-8 file written back would lose its bytes (cli/shared/source-text.ts).
  const read = readSourceText(file);
  if (read.text === undefined) return { file, source: '', output: null, sites: [], helperPieces: [], error: problemLine(read.problem) };
  const source = read.text;
  const frontEnd = frontEndOf(file);
  if (!named && !(await settled(frontEnd.prefilter(args.ruleOptions)(source, file)))) return null;
  if (read.problem) return { file, source, output: null, sites: [], helperPieces: [], error: problemLine(read.problem) };
  const result = await frontEnd.fix.rewrite(source, file, { bounds, ruleOptions: args.ruleOptions, types: args.types, helperModule, styleSettings: () => styleSettings(file, signal) });
  if (result.parseError) return { file, source, output: null, sites: [], helperPieces: [], error: `cannot parse: ${result.parseError}` };
  if (result.sites.length === 0) return null;
  return { file, source, output: result.output, sites: result.sites, helperPieces: result.helperPieces ?? [] };
}

/**
 * The repository's formatter settings for a file. Where its formatter's configuration cannot be loaded here, what the
 * configuration states still holds but no formatter default stands in for what it does not state (the file's own
 * style does): `unloadable`.
 */
export async function styleSettings(file: string, signal: AbortSignal): Promise<StyleSettings> {
  const settings = styleSettingsFor(file);
  return (await formatterProblem(file, signal)) ? { ...settings, unloadable: true } : settings;
}
