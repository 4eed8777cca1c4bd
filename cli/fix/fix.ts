import path from 'node:path';
import { LINTABLE_EXTENSIONS, frontEndOf } from '../front-ends/registry.js';
import type { InFileHelperTest } from '../front-ends/front-end.js';
import { collectTargetsOrReport } from '../shared/files.js';
import { FIX_USAGE } from '../shared/usage.js';
import { VERSION } from '../shared/version.js';
import { parseFixArgs } from './args.js';
import type { FixRun } from './fix-run.js';
import { formatRewrites } from './format-rewrites.js';
import { formattingReports } from './formatting-report.js';
import { dirtyFiles } from './git-clean.js';
import { chooseHelperModules } from './helper-choice.js';
import { checkHelperModules } from './helper-modules.js';
import { helperTestPaths, planHelperTests, type HelperTest } from './helper-test.js';
import { planInFileHelperTests } from './in-file-helper-test.js';
import type { InMemory, ModuleText, Rewritten } from './in-memory.js';
import { interruptedLine, stopOnInterrupt } from './interrupt.js';
import { Progress } from './progress.js';
import { PROVE_POINTER, humanReport, summarize } from './report.js';
import { placeHelperModules, rewriteFiles } from './rewrite-files.js';
import { typeCheckRewrites } from './type-check.js';
import { VerificationInterrupted, startVerifier } from './verify.js';
import { writeFiles, type WriteOutcome } from './write-files.js';

/** `drainguard fix`: 0 every site fixed (or none), 1 some site manual or some file failed, 2 usage error or refusal, 130 Ctrl-C. */
export async function runFix(argv: readonly string[]): Promise<number> {
  const parsed = parseFixArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`drainguard fix: ${parsed.error}\nRun 'drainguard fix --help' for usage.\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(FIX_USAGE);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }

  const cwd = process.cwd();
  const targets = await collectTargetsOrReport('fix', args.paths, cwd, LINTABLE_EXTENSIONS);
  if (!targets) return 2;
  const { files, named } = targets;
  const choices = await chooseHelperModules(
    files.filter((file) => frontEndOf(file).fix.helper.kind === 'shared-module'),
    args.helperPath,
    cwd,
  );
  if ('error' in choices) {
    process.stderr.write(`drainguard fix: ${choices.error}\n`);
    return 2;
  }

  const progress = new Progress(process.stderr.isTTY && !args.json);
  const { signal, release } = stopOnInterrupt(progress);
  const verifier = args.verify === 'off' ? undefined : startVerifier(signal);
  const choiceOf = new Map(choices.flatMap((choice) => choice.files.map((file) => [file, choice] as const)));
  try {
    return await fix({ args, cwd, files, named, choices, choiceOf, verifier, signal, progress, phase: 'reading' });
  } finally {
    release();
    await verifier?.close();
  }
}

/**
 * The run: every file rewritten, checked and formatted in memory first; then the tests of the helpers planned, the
 * refusal where a file to write has uncommitted changes, the writes, and the report.
 */
async function fix(run: FixRun): Promise<number> {
  const work: InMemory = { scanned: 0, rewritten: [], modules: [] };
  try {
    await rewriteFiles(run, work);
    await placeHelperModules(run, work.rewritten);
    const toWrite = work.rewritten.filter((entry) => entry.output !== null);
    await checkHelperModules(run, work);
    await formatRewrites(run, toWrite);
    await typeCheckRewrites(run, work, toWrite);
  } catch (error) {
    if (!(error instanceof VerificationInterrupted)) throw error;
  } finally {
    run.progress.show('');
  }
  const writing = work.rewritten.filter((entry) => entry.output !== null);
  const { tests, inFileTests } = await planTests(run, work.modules, writing);
  if (await refuseUncommittedChanges(run, [...work.modules.map((module) => module.path), ...helperTestPaths(tests), ...writing.map((entry) => entry.file), ...helperTestPaths(inFileTests)])) return 2;
  const outcome = await writeFiles(run, { modules: work.modules, tests, rewritten: work.rewritten, inFileTests });
  return report(run, outcome, work.scanned);
}

/**
 * The test of each helper module, written with it unless --no-test (cli/fix/helper-test.ts), and of the drain helpers
 * each rewritten file carries where its front end puts them in the file (cli/fix/in-file-helper-test.ts).
 */
async function planTests(run: FixRun, modules: readonly ModuleText[], writing: readonly Rewritten[]): Promise<{ tests: HelperTest[]; inFileTests: InFileHelperTest[] }> {
  const { args, signal } = run;
  const importersOf = (modulePath: string): { file: string; text: string }[] =>
    writing.filter((entry) => run.choiceOf.get(entry.file)?.path === modulePath).map((entry) => ({ file: entry.file, text: entry.output ?? '' }));
  const tests = signal.aborted || !args.test ? [] : await planHelperTests(modules.map((module) => ({ path: module.path, text: module.text, before: module.existing?.text ?? null, importers: importersOf(module.path) })), { verifier: run.verifier, verify: args.verify, signal });
  const inFileTests = signal.aborted || !args.test ? [] : await planInFileHelperTests(writing.map((entry) => ({ file: entry.file, text: entry.output ?? '' })));
  return { tests, inFileTests };
}

/** Whether the run refuses to write because a file it would write has uncommitted changes (not with --dry or --force). */
async function refuseUncommittedChanges(run: FixRun, paths: readonly string[]): Promise<boolean> {
  if (run.signal.aborted || run.args.dry || run.args.force) return false;
  const dirty = await dirtyFiles(paths);
  if (dirty.length === 0) return false;
  const named = dirty.map((file) => path.relative(run.cwd, file) || file).join(', ');
  process.stderr.write(
    `drainguard fix: refusing to rewrite ${dirty.length === 1 ? 'a file that has' : 'files that have'} uncommitted changes: ${named}.\n` +
      `Commit or stash ${dirty.length === 1 ? 'it' : 'them'} first so the rewrite can be reviewed as its own diff, or pass --force to rewrite anyway (--dry shows what would change).\n`,
  );
  return true;
}

/** The report (JSON, or the human one), the line after Ctrl-C, and the exit code. */
function report(run: FixRun, { reports, written, notWritten }: WriteOutcome, scanned: number): number {
  const { args, cwd } = run;
  const stoppedIn = run.signal.aborted ? run.phase : undefined;
  // After Ctrl-C, only what was written: a file with nothing to write, or not reached, is for the next run.
  const shownReports = stoppedIn ? (args.dry ? [] : reports.filter((report) => report.changed)) : reports;
  const formatting = formattingReports(written, cwd);
  const summary = summarize(shownReports, scanned, stoppedIn ? { phase: stoppedIn, filesNotWritten: notWritten } : undefined);
  if (args.json) {
    const shown = shownReports.map((report) => (args.print ? report : { ...report, diff: undefined }));
    process.stdout.write(`${JSON.stringify({ files: shown, ...(formatting.length > 0 ? { formatting } : {}), summary }, null, 2)}\n`);
  } else {
    // With --print, stdout is the patch alone (`fix --dry --print > p.diff && git apply p.diff`).
    (args.print ? process.stderr : process.stdout).write(humanReport(shownReports, summary, cwd, args.dry, formatting));
    if (args.print && summary.fixed > 0) process.stderr.write(PROVE_POINTER);
  }
  if (stoppedIn) {
    process.stderr.write(interruptedLine(stoppedIn, written.length, notWritten, args.dry));
    return 130;
  }
  return summary.manual > 0 || summary.errors > 0 ? 1 : 0;
}
