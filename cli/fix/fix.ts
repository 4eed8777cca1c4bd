import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { isTypeScriptPath } from '../../rules/parser-options.js';
import { drainBounds, type DrainBounds } from '../../rules/contract/drain-options.js';
import type { SiteResult } from '../../codemods/rewrite.js';
import { HELPER_MODULE_NAME, extendHelperModule, helperModuleText } from '../../rules/fix/helper-module.js';
import type { PieceName } from '../../rules/fix/helpers.js';
import { detectStyle, styleSettingsFor, type StyleSettings } from '../../rules/fix/style.js';
import { collectTargetsOrReport } from '../shared/files.js';
import { settled } from '../front-ends/javascript-prefilter.js';
import { LINTABLE_EXTENSIONS, frontEndOf } from '../front-ends/registry.js';
import { parseFixArgs, type FixArgs } from './args.js';
import { formatRewrite, formatterProblem, type FormatProblem } from './formatter.js';
import { chooseHelperModules, helperExtension, type HelperChoice } from './helper-choice.js';
import { helperTestPaths, planHelperTests, writeHelperTest } from './helper-test.js';
import { PROVE_POINTER, colorDiff, humanReport, summarize, unifiedDiff, type FileReport, type FixPhase, type FormattingReport } from './report.js';
import { commonAncestor, diffPath, diffRoot } from './diff-paths.js';
import { VerificationInterrupted, allAdded, hasTsconfig, projectOf, startVerifier, type FileChange, type Verifier } from './verify.js';
import { stdoutSupportsColor } from '../shared/color.js';
import { errorCode } from '../shared/errors.js';
import { dirtyFiles } from './git-clean.js';
import { problemLine, readSourceText } from '../shared/source-text.js';
import { inFileHelperTestPaths, planInFileHelperTests, writeInFileHelperTest } from './in-file-helper-test.js';
import { FIX_USAGE } from '../shared/usage.js';
import { VERSION } from '../shared/version.js';

const CLEAR_LINE = '\r\u001b[2K';

/** One file after the rewrite, before anything is written. */
interface Rewritten {
  file: string;
  source: string;
  /** The text to write, or null when the file stays as it is. */
  output: string | null;
  sites: SiteResult[];
  /** What the output imports from the helper module. */
  helperPieces: PieceName[];
  error?: string;
  /** Why the repository's formatter did not format the output, where it could not run. */
  formatProblem?: FormatProblem;
}

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

  // Ctrl-C stops the run at once: in memory (reading, formatting, type-checking) nothing is written yet; while it
  // writes, after the file being written. A second Ctrl-C exits there and then (each write is atomic all the same).
  const stop = new AbortController();
  const progress = process.stderr.isTTY && !args.json;
  const onSigint = (): void => {
    if (stop.signal.aborted) {
      process.stderr.write(`${progress ? CLEAR_LINE : ''}drainguard fix: interrupted again: exiting; every file is either unchanged or fully rewritten.\n`);
      process.exit(130);
    }
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  const verifier = args.verify === 'off' ? undefined : startVerifier(stop.signal);
  try {
    return await fix({ args, cwd, files, named, choices, verifier, signal: stop.signal, progress });
  } finally {
    process.off('SIGINT', onSigint);
    await verifier?.close();
  }
}

interface FixRun {
  args: FixArgs;
  cwd: string;
  files: readonly string[];
  named: ReadonlySet<string>;
  choices: HelperChoice[];
  verifier: Verifier | undefined;
  signal: AbortSignal;
  progress: boolean;
}

async function fix({ args, cwd, files, named, choices, verifier, signal, progress }: FixRun): Promise<number> {
  const choiceOf = new Map(choices.flatMap((choice) => choice.files.map((file) => [file, choice] as const)));
  // An existing helper module keeps its limits unless they are given; the drains that import it run with them.
  const boundsOf = (choice: HelperChoice | undefined): DrainBounds =>
    drainBounds({
      drainTimeoutMs: args.drainTimeoutMs ?? choice?.existing?.bounds.drainTimeoutMs,
      drainMaxBytes: args.drainMaxBytes ?? choice?.existing?.bounds.drainMaxBytes,
      drainWaitMs: args.drainWaitMs,
    });
  let phase: FixPhase = 'reading';
  const show = (step: string): void => {
    if (progress) process.stderr.write(`${CLEAR_LINE}${step}`);
  };

  const rewritten: Rewritten[] = [];
  let scanned = 0;
  let modules: ModuleText[] = [];
  try {
    for (const file of files) {
      if (signal.aborted) break;
      scanned++;
      show(`[${scanned}/${files.length}] ${path.relative(cwd, file)}`);
      const choice = choiceOf.get(file);
      const result = await rewriteFile(file, args, boundsOf(choice), choice?.path, named.has(file), signal);
      if (result) rewritten.push(result);
      // Reads are synchronous (cli/shared/source-text.ts): let a Ctrl-C in between files be heard.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!signal.aborted) for (const choice of choices) await placeHelperModule(choice, rewritten, args, boundsOf(choice), signal);

    const finishModules = async (check: Verifier | undefined): Promise<ModuleText[]> => {
      const done: ModuleText[] = [];
      for (const choice of choices) {
        if (signal.aborted) break;
        const module = await finishHelperModule(choice, rewritten, args, boundsOf(choice), check, signal);
        if (module) done.push(module);
      }
      return done;
    };
    const toWrite = rewritten.filter((entry) => entry.output !== null);
    if (!signal.aborted) {
      phase = 'type-checking';
      show('type-checking the helper module');
      modules = await finishModules(verifier);
    }
    if (!signal.aborted) {
      phase = 'formatting';
      for (const [index, entry] of toWrite.entries()) {
        if (signal.aborted || entry.output === null) continue;
        show(`formatting [${index + 1}/${toWrite.length}] ${path.relative(cwd, entry.file)}`);
        const formatted = await formatRewrite(entry.file, entry.source, entry.output, signal);
        entry.output = formatted.text;
        if (formatted.problem) entry.formatProblem = formatted.problem;
      }
    }
    if (verifier && !signal.aborted) {
      phase = 'type-checking';
      const checked = toWrite.filter((entry) => isTypeScriptPath(entry.file) && (args.verify === 'on' || hasTsconfig(entry.file)));
      let pending = groupBy(checked, (entry) => projectOf(entry.file));
      while (pending.size > 0 && !signal.aborted) {
        const again = new Map<string, Rewritten[]>();
        for (const [project, group] of pending) {
          const entries = group.filter((entry) => entry.output !== null);
          if (entries.length === 0) continue;
          show(`type-checking ${entries.length} rewritten file${entries.length === 1 ? '' : 's'} (${path.relative(cwd, project) || project})`);
          const moduleOf = (entry: Rewritten): ModuleText | undefined => modules.find((module) => module.path === choiceOf.get(entry.file)?.path);
          if (await verifyTypes(entries, verifier, moduleOf, (entry) => show(`type-checking ${path.relative(cwd, entry.file)} alone`))) again.set(project, entries);
        }
        // Only what the files that stay rewritten import; checked again with it where a rewrite was rolled back.
        if (again.size > 0) modules = await finishModules(undefined);
        pending = again;
      }
    }
  } catch (error) {
    if (!(error instanceof VerificationInterrupted)) throw error;
  } finally {
    show('');
  }

  const writing = rewritten.filter((entry) => entry.output !== null);
  // The test of each helper module, written with it unless --no-test (cli/fix/helper-test.ts), and of the drain helpers
  // each rewritten file carries where its front end puts them in the file (cli/fix/in-file-helper-test.ts).
  const importersOf = (modulePath: string): { file: string; text: string }[] =>
    writing.filter((entry) => choiceOf.get(entry.file)?.path === modulePath).map((entry) => ({ file: entry.file, text: entry.output ?? '' }));
  const tests = signal.aborted || !args.test ? [] : await planHelperTests(modules.map((module) => ({ path: module.path, text: module.text, before: module.existing?.text ?? null, importers: importersOf(module.path) })), { verifier, verify: args.verify, signal });
  const inFileTests = signal.aborted || !args.test ? [] : await planInFileHelperTests(writing.map((entry) => ({ file: entry.file, text: entry.output ?? '' })));
  if (!signal.aborted && !args.dry && !args.force) {
    const dirty = await dirtyFiles([...modules.map((module) => module.path), ...helperTestPaths(tests), ...writing.map((entry) => entry.file), ...inFileHelperTestPaths(inFileTests)]);
    if (dirty.length > 0) {
      const named = dirty.map((file) => path.relative(cwd, file) || file).join(', ');
      process.stderr.write(
        `drainguard fix: refusing to rewrite ${dirty.length === 1 ? 'a file that has' : 'files that have'} uncommitted changes: ${named}.\n` +
          `Commit or stash ${dirty.length === 1 ? 'it' : 'them'} first so the rewrite can be reviewed as its own diff, or pass --force to rewrite anyway (--dry shows what would change).\n`,
      );
      return 2;
    }
  }

  if (!signal.aborted) phase = 'writing';
  const patchRoot = args.print && !signal.aborted ? await diffRoot(cwd, [...writing.map((entry) => entry.file), ...modules.map((module) => module.path), ...helperTestPaths(tests), ...inFileHelperTestPaths(inFileTests)]) : undefined;
  if (patchRoot && !patchRoot.isCwd && !args.json) {
    process.stderr.write(`drainguard fix: the diff paths are relative to ${patchRoot.root} (not every file is under this directory): apply the diff there.\n`);
  }
  const color = stdoutSupportsColor();
  const showDiff = (report: FileReport): void => {
    if (!report.diff || args.json) return;
    process.stdout.write(color ? `${colorDiff(report.diff)}\n` : `${report.diff}\n`);
  };
  // What is reported: every file the run read, or after Ctrl-C only what it wrote (a dry run writes nothing).
  let reports: FileReport[] = [];
  const written: Array<{ path: string; problem?: FormatProblem }> = [];
  const unwritten = new Set<string>();
  let notWritten = 0;
  let writes = 0;
  for (const module of modules) {
    if (signal.aborted) {
      notWritten++;
      continue;
    }
    const report: FileReport = { path: module.path, changed: true, sites: [], helper: module.existing ? 'updated' : 'created' };
    if (patchRoot) report.diff = unifiedDiff(diffPath(patchRoot.root, module.path), module.existing?.text ?? null, module.text);
    if (!args.dry) {
      try {
        await mkdir(path.dirname(module.path), { recursive: true });
        await writeFileAtomic(module.path, module.text, { encoding: 'utf8' });
      } catch (error) {
        report.changed = false;
        report.error = `cannot write: ${messageOf(error)}`;
        unwritten.add(module.path);
      }
    }
    if (report.changed) written.push({ path: module.path, problem: module.formatProblem });
    reports.push(report);
    showDiff(report);
  }
  for (const test of tests) {
    if (signal.aborted) {
      if (test.text !== null) notWritten++;
      continue;
    }
    const report = await writeHelperTest(test, { dry: args.dry, patchRoot: patchRoot?.root, moduleWritten: !unwritten.has(test.modulePath) });
    if (report.changed) written.push({ path: test.path, problem: test.formatProblem });
    reports.push(report);
    showDiff(report);
  }
  for (const entry of rewritten) {
    if (signal.aborted) {
      if (entry.output !== null) notWritten++;
      continue;
    }
    const report: FileReport = { path: entry.file, changed: false, sites: entry.sites, ...(entry.error ? { error: entry.error } : {}) };
    reports.push(report);
    if (entry.output === null) continue;
    if (patchRoot) report.diff = unifiedDiff(diffPath(patchRoot.root, entry.file), entry.source, entry.output);
    if (entry.helperPieces.length > 0 && unwritten.has(choiceOf.get(entry.file)?.path ?? '')) {
      report.error = 'not written: the helper module it imports could not be written';
      continue;
    }
    if (!args.dry) {
      show(`writing [${++writes}/${writing.length}] ${path.relative(cwd, entry.file)}`);
      try {
        await writeFileAtomic(entry.file, entry.output, { encoding: 'utf8' });
      } catch (error) {
        report.error = `cannot write: ${messageOf(error)}`;
        continue;
      }
    }
    report.changed = true;
    written.push({ path: entry.file, problem: entry.formatProblem });
    showDiff(report);
  }
  for (const test of inFileTests) {
    if (signal.aborted) {
      if (test.text !== null) notWritten++;
      continue;
    }
    const moduleWritten = reports.some((report) => report.path === test.modulePath && report.changed);
    const report = await writeInFileHelperTest(test, { dry: args.dry, patchRoot: patchRoot?.root, moduleWritten });
    if (report.changed) written.push({ path: test.path });
    reports.push(report);
    showDiff(report);
  }
  show('');
  const stoppedIn = signal.aborted ? phase : undefined;
  // After Ctrl-C, only what was written: a file with nothing to write, or not reached, is for the next run.
  if (stoppedIn) reports = args.dry ? [] : reports.filter((report) => report.changed);

  const formatting = formattingReports(written, cwd);
  const summary = summarize(reports, scanned, stoppedIn ? { phase: stoppedIn, filesNotWritten: notWritten } : undefined);
  if (args.json) {
    const shown = reports.map((report) => (args.print ? report : { ...report, diff: undefined }));
    process.stdout.write(`${JSON.stringify({ files: shown, ...(formatting.length > 0 ? { formatting } : {}), summary }, null, 2)}\n`);
  } else {
    // With --print, stdout is the patch alone (`fix --dry --print > p.diff && git apply p.diff`).
    (args.print ? process.stderr : process.stdout).write(humanReport(reports, summary, cwd, args.dry, formatting));
    if (args.print && summary.fixed > 0) process.stderr.write(PROVE_POINTER);
  }
  if (stoppedIn) {
    process.stderr.write(interruptedLine(stoppedIn, written.length, notWritten, args.dry));
    return 130;
  }
  return summary.manual > 0 || summary.errors > 0 ? 1 : 0;
}

/** The last line after Ctrl-C: where it stopped, and what is on disk. */
function interruptedLine(phase: FixPhase, written: number, notWritten: number, dry: boolean): string {
  const where = phase === 'reading' ? 'while reading the files' : `while ${phase === 'writing' ? 'writing' : phase}`;
  if (dry) return `drainguard fix: interrupted ${where} (dry run: nothing written).\n`;
  if (written === 0) return `drainguard fix: interrupted ${where}: nothing was written, every file is as it was.\n`;
  return `drainguard fix: interrupted ${where}: ${written} file${written === 1 ? '' : 's'} written (listed above), ${notWritten} not written; every file is either unchanged or fully rewritten.\n`;
}

/** The files the repository's formatter could not format, by configuration and reason, with what formats them. */
function formattingReports(written: ReadonlyArray<{ path: string; problem?: FormatProblem }>, cwd: string): FormattingReport[] {
  const byProblem = new Map<string, { problem: FormatProblem; files: string[] }>();
  for (const file of written) {
    if (!file.problem) continue;
    const key = `${file.problem.config}\0${file.problem.reason}`;
    const group = byProblem.get(key) ?? { problem: file.problem, files: [] };
    group.files.push(file.path);
    byProblem.set(key, group);
  }
  return [...byProblem.values()].map(({ problem, files }) => ({
    formatter: problem.formatter,
    config: problem.config,
    reason: problem.reason,
    files,
    run: [...problem.command, ...files.map((file) => path.relative(cwd, file) || file)].map(shellWord).join(' '),
  }));
}

/** A word as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * The rewrite of one file in memory (null for a file that holds no site). A file named on the command line is always
 * parsed, as `lint` parses it, so that a syntax error in it is reported instead of passing as a file without sites.
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
async function styleSettings(file: string, signal: AbortSignal): Promise<StyleSettings> {
  const settings = styleSettingsFor(file);
  return (await formatterProblem(file, signal)) ? { ...settings, unloadable: true } : settings;
}

/**
 * A new helper module goes to the common directory of its package's files that change (not of every file scanned):
 * where that is not where the rewrite assumed it, those files are rewritten again for its path.
 */
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

interface ModuleText {
  path: string;
  text: string;
  existing: HelperChoice['existing'];
  formatProblem?: FormatProblem;
}

/**
 * A helper module's new text: the pieces every file that imports it uses (added to an existing module, whose own
 * text stays), laid out like the first of those files and the repository's settings, formatted with its formatter;
 * null where nothing changes. A TypeScript module that adds a diagnostic to the project rolls back its importers.
 */
async function finishHelperModule(helper: HelperChoice, rewritten: Rewritten[], args: FixArgs, bounds: DrainBounds, verifier: Verifier | undefined, signal: AbortSignal): Promise<ModuleText | null> {
  const importers = rewritten.filter((entry) => entry.output !== null && entry.helperPieces.length > 0 && helper.files.includes(entry.file));
  if (importers.length === 0) return null;
  const pieces = new Set(importers.flatMap((entry) => entry.helperPieces));
  const style = detectStyle(importers[0].source.replace(/^\uFEFF/, ''), isTypeScriptPath(helper.path), await styleSettings(helper.path, signal));
  const explicit = args.drainTimeoutMs !== undefined || args.drainMaxBytes !== undefined;
  const text = helper.existing ? extendHelperModule(helper.existing, pieces, style, explicit ? bounds : undefined) : helperModuleText(pieces, style, bounds);
  if (text === null) return null;
  const formatted = await formatRewrite(helper.path, null, text, signal);
  if (verifier && isTypeScriptPath(helper.path) && (args.verify === 'on' || hasTsconfig(helper.path))) {
    // Checked on its own first (nothing imports it yet): only what it adds to the project counts.
    const change = { path: helper.path, before: helper.existing?.text ?? null, after: formatted.text };
    const [diagnostic] = allAdded(await verifier.addedByFile([change], importers[0].file, { roots: [helper.path] }));
    if (diagnostic !== undefined) {
      for (const entry of importers) rollBack(entry, `rolled back: the helper module ${path.basename(helper.path)} does not type-check here: ${diagnostic}`);
      return null;
    }
  }
  return { path: helper.path, text: formatted.text, existing: helper.existing, ...(formatted.problem ? { formatProblem: formatted.problem } : {}) };
}

/**
 * Type-checks one project's rewritten TypeScript files, all at once, before and after (with the helper modules as they
 * will be): a file whose own diagnostics gain one is rolled back. A diagnostic the program gains that is no file's
 * (options, global) is found by checking each file alone, with the disk's other files; one that only their combination
 * adds is not blamed on any. Whether a rewrite was rolled back (the rest is then checked again without it).
 */
async function verifyTypes(entries: Rewritten[], verifier: Verifier, moduleOf: (entry: Rewritten) => ModuleText | undefined, showAlone: (entry: Rewritten) => void): Promise<boolean> {
  const changesOf = (group: readonly Rewritten[]): FileChange[] => {
    const changes: FileChange[] = group.map((entry) => ({ path: entry.file, before: entry.source, after: entry.output! }));
    for (const module of new Set(group.filter((entry) => entry.helperPieces.length > 0).map(moduleOf))) {
      if (module) changes.push({ path: module.path, before: module.existing?.text ?? null, after: module.text });
    }
    return changes;
  };
  const reason = (diagnostic: string): string => `rolled back: the rewrite adds a TypeScript diagnostic: ${diagnostic}`;
  const added = await verifier.addedByFile(changesOf(entries), entries[0].file, { check: entries.map((entry) => entry.file) });
  let rolledBack = false;
  for (const entry of entries) {
    const [diagnostic] = added.files[entry.file] ?? [];
    if (diagnostic === undefined) continue;
    rollBack(entry, reason(diagnostic));
    rolledBack = true;
  }
  if (added.program.length > 0) {
    for (const entry of entries) {
      if (entry.output === null) continue;
      showAlone(entry);
      const [diagnostic] = allAdded(await verifier.addedByFile(changesOf([entry]), entry.file, { check: [entry.file] }));
      if (diagnostic === undefined) continue;
      rollBack(entry, reason(diagnostic));
      rolledBack = true;
    }
  }
  return rolledBack;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function rollBack(entry: Rewritten, reason: string): void {
  entry.output = null;
  entry.helperPieces = [];
  entry.formatProblem = undefined;
  entry.sites = entry.sites.map((site) => (site.status === 'fixed' ? { line: site.line, column: site.column, status: 'manual', reason } : site));
}

function messageOf(error: unknown): string {
  const code = errorCode(error);
  if (code !== undefined) return `${code} ${error instanceof Error ? error.message : ''}`.trim();
  return error instanceof Error ? error.message : String(error);
}
