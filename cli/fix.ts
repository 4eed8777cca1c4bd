import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { isTypeScriptPath } from '../rules/parser-options.js';
import { drainBounds, type DrainBounds } from '../rules/contract/drain-options.js';
import { rewrite, type RewriteResult, type SiteResult } from '../codemods/rewrite.js';
import { HELPER_MODULE_NAME, extendHelperModule, helperModuleText } from '../rules/fix/helper-module.js';
import type { PieceName } from '../rules/fix/helpers.js';
import { detectStyle, styleSettingsFor } from '../rules/fix/style.js';
import { collectTargetsOrReport } from './files.js';
import { prefilterFor, settled } from './for-await-check.js';
import { parseFixArgs, type FixArgs } from './fix-args.js';
import { formatRewrite } from './fix-format.js';
import { chooseHelperModules, helperExtension, type HelperChoice } from './fix-helper.js';
import { helperTestPaths, planHelperTests, writeHelperTest } from './fix-helper-test.js';
import { PROVE_POINTER, colorDiff, humanReport, summarize, unifiedDiff, type FileReport } from './fix-report.js';
import { commonAncestor, diffPath, diffRoot } from './diff-paths.js';
import { RewriteVerifier, hasTsconfig } from './fix-verify.js';
import { stdoutSupportsColor } from './format.js';
import { errorCode } from './errors.js';
import { dirtyFiles } from './git-clean.js';
import { rewritePython } from '../codemods/python/rewrite.js';
import { isPythonPath, mayReportPython } from './python-files.js';
import { FIX_USAGE } from './usage.js';
import { VERSION } from './version.js';

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
}

/** `drainguard fix`: 0 every site fixed (or none), 1 some site manual or some file failed, 2 usage error or refusal. */
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
  const targets = await collectTargetsOrReport('fix', args.paths, cwd);
  if (!targets) return 2;
  const { files, named } = targets;
  const choices = await chooseHelperModules(
    files.filter((file) => !isPythonPath(file)),
    args.helperPath,
    cwd,
  );
  if ('error' in choices) {
    process.stderr.write(`drainguard fix: ${choices.error}\n`);
    return 2;
  }
  const choiceOf = new Map(choices.flatMap((choice) => choice.files.map((file) => [file, choice] as const)));
  // An existing helper module keeps its limits unless they are given; the drains that import it run with them.
  const boundsOf = (choice: HelperChoice | undefined): DrainBounds =>
    drainBounds({
      drainTimeoutMs: args.drainTimeoutMs ?? choice?.existing?.bounds.drainTimeoutMs,
      drainMaxBytes: args.drainMaxBytes ?? choice?.existing?.bounds.drainMaxBytes,
    });

  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
  };
  process.on('SIGINT', onSigint);
  const progress = process.stderr.isTTY && !args.json;
  const rewritten: Rewritten[] = [];
  let scanned = 0;
  try {
    for (const file of files) {
      if (interrupted) break;
      scanned++;
      if (progress) process.stderr.write(`${CLEAR_LINE}[${scanned}/${files.length}] ${path.relative(cwd, file)}`);
      const choice = choiceOf.get(file);
      const result = await rewriteFile(file, args, boundsOf(choice), choice?.path, named.has(file));
      if (result) rewritten.push(result);
    }
    if (!interrupted) for (const choice of choices) await placeHelperModule(choice, rewritten, args, boundsOf(choice));
  } finally {
    if (progress) process.stderr.write(CLEAR_LINE);
  }

  const verifier = args.verify === 'off' ? undefined : new RewriteVerifier();
  const finishModules = async (check: RewriteVerifier | undefined): Promise<ModuleText[]> => {
    const modules: ModuleText[] = [];
    for (const choice of choices) {
      const module = await finishHelperModule(choice, rewritten, args, boundsOf(choice), check);
      if (module) modules.push(module);
    }
    return modules;
  };
  let modules = interrupted ? [] : await finishModules(verifier);
  const moduleOf = (entry: Rewritten): ModuleText | undefined => modules.find((module) => module.path === choiceOf.get(entry.file)?.path);
  const reports: FileReport[] = [];
  const toWrite = rewritten.filter((entry) => entry.output !== null);
  if (!interrupted) {
    for (const entry of toWrite) entry.output = (await formatRewrite(entry.file, entry.source, entry.output!)).text;
    if (verifier) {
      for (const entry of toWrite) await verifyTypes(entry, args, verifier, moduleOf(entry) ?? null);
      // Only what the files that stay rewritten import.
      modules = await finishModules(undefined);
    }
  }
  const writing = rewritten.filter((entry) => entry.output !== null);
  // The test of each helper module, written with it unless --no-test (cli/fix-helper-test.ts).
  const importersOf = (modulePath: string): { file: string; text: string }[] =>
    writing.filter((entry) => choiceOf.get(entry.file)?.path === modulePath).map((entry) => ({ file: entry.file, text: entry.output ?? '' }));
  const tests = interrupted || !args.test ? [] : await planHelperTests(modules.map((module) => ({ ...module, importers: importersOf(module.path) })), { verifier, verify: args.verify });
  if (!interrupted && !args.dry && !args.force) {
    const dirty = await dirtyFiles([...modules.map((module) => module.path), ...helperTestPaths(tests), ...writing.map((entry) => entry.file)]);
    if (dirty.length > 0) {
      process.off('SIGINT', onSigint);
      const named = dirty.map((file) => path.relative(cwd, file) || file).join(', ');
      process.stderr.write(
        `drainguard fix: refusing to rewrite ${dirty.length === 1 ? 'a file that has' : 'files that have'} uncommitted changes: ${named}.\n` +
          `Commit or stash ${dirty.length === 1 ? 'it' : 'them'} first so the rewrite can be reviewed as its own diff, or pass --force to rewrite anyway (--dry shows what would change).\n`,
      );
      return 2;
    }
  }

  const patchRoot = args.print ? await diffRoot(cwd, [...writing.map((entry) => entry.file), ...modules.map((module) => module.path), ...helperTestPaths(tests)]) : undefined;
  if (patchRoot && !patchRoot.isCwd && !args.json) {
    process.stderr.write(`drainguard fix: the diff paths are relative to ${patchRoot.root} (not every file is under this directory): apply the diff there.\n`);
  }
  const color = stdoutSupportsColor();
  const show = (report: FileReport): void => {
    if (!report.diff || args.json) return;
    process.stdout.write(color ? `${colorDiff(report.diff)}\n` : `${report.diff}\n`);
  };
  const unwritten = new Set<string>();
  for (const module of modules) {
    const report: FileReport = { path: module.path, changed: true, sites: [], helper: module.existing ? 'updated' : 'created' };
    if (patchRoot) report.diff = unifiedDiff(diffPath(patchRoot.root, module.path), module.existing?.text ?? null, module.text);
    if (!args.dry && !interrupted) {
      try {
        await mkdir(path.dirname(module.path), { recursive: true });
        await writeFileAtomic(module.path, module.text, { encoding: 'utf8' });
      } catch (error) {
        report.changed = false;
        report.error = `cannot write: ${messageOf(error)}`;
        unwritten.add(module.path);
      }
    }
    reports.push(report);
    show(report);
  }
  for (const test of tests) {
    const report = await writeHelperTest(test, { dry: args.dry || interrupted, patchRoot: patchRoot?.root, moduleWritten: !unwritten.has(test.modulePath) });
    reports.push(report);
    show(report);
  }
  try {
    for (const entry of rewritten) {
      const report: FileReport = { path: entry.file, changed: false, sites: entry.sites, ...(entry.error ? { error: entry.error } : {}) };
      reports.push(report);
      if (entry.output === null) continue;
      if (patchRoot) report.diff = unifiedDiff(diffPath(patchRoot.root, entry.file), entry.source, entry.output);
      if (entry.helperPieces.length > 0 && unwritten.has(choiceOf.get(entry.file)?.path ?? '')) {
        report.error = 'not written: the helper module it imports could not be written';
        continue;
      }
      if (!args.dry) {
        if (interrupted) break;
        try {
          await writeFileAtomic(entry.file, entry.output, { encoding: 'utf8' });
        } catch (error) {
          report.error = `cannot write: ${messageOf(error)}`;
          continue;
        }
      }
      report.changed = true;
      show(report);
    }
  } finally {
    process.off('SIGINT', onSigint);
  }

  const summary = summarize(reports, scanned);
  if (args.json) {
    const shown = reports.map((report) => (args.print ? report : { ...report, diff: undefined }));
    process.stdout.write(`${JSON.stringify({ files: shown, summary }, null, 2)}\n`);
  } else {
    // With --print, stdout is the patch alone (`fix --dry --print > p.diff && git apply p.diff`).
    (args.print ? process.stderr : process.stdout).write(humanReport(reports, summary, cwd, args.dry));
    if (args.print && summary.fixed > 0) process.stderr.write(PROVE_POINTER);
  }
  if (interrupted) {
    process.stderr.write(`drainguard fix: interrupted after ${scanned} of ${files.length} files; every file is either unchanged or fully rewritten.\n`);
    return 130;
  }
  return summary.manual > 0 || summary.errors > 0 ? 1 : 0;
}

/**
 * The rewrite of one file in memory (null for a file that holds no site). A file named on the command line is always
 * parsed, as `lint` parses it, so that a syntax error in it is reported instead of passing as a file without sites.
 */
async function rewriteFile(file: string, args: FixArgs, bounds: DrainBounds, helperModule: string | undefined, named = false): Promise<Rewritten | null> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    return { file, source: '', output: null, sites: [], helperPieces: [], error: `cannot read: ${messageOf(error)}` };
  }
  const python = isPythonPath(file);
  if (!named && (python ? !mayReportPython(source, args.ruleOptions) : !(await settled(prefilterFor(args.ruleOptions.closeMethods)(source, file))))) return null;
  const result: RewriteResult = python
    ? await rewritePython(source, { ...bounds, ruleOptions: args.ruleOptions, filePath: file })
    : rewrite(source, file, { ...bounds, types: args.types, ruleOptions: args.ruleOptions, helperModule: helperModule === undefined ? undefined : { path: helperModule }, styleSettings: styleSettingsFor(file) });
  if (result.parseError) return { file, source, output: null, sites: [], helperPieces: [], error: `cannot parse: ${result.parseError}` };
  if (result.sites.length === 0) return null;
  return { file, source, output: result.output, sites: result.sites, helperPieces: result.helperPieces ?? [] };
}

/**
 * A new helper module goes to the common directory of its package's files that change (not of every file scanned):
 * where that is not where the rewrite assumed it, those files are rewritten again for its path.
 */
async function placeHelperModule(helper: HelperChoice, rewritten: Rewritten[], args: FixArgs, bounds: DrainBounds): Promise<void> {
  if (helper.fixed) return;
  const changed = rewritten.filter((entry) => entry.output !== null && helper.files.includes(entry.file));
  if (changed.length === 0) return;
  const placed = path.join(commonAncestor(changed.map((entry) => path.dirname(entry.file))), `${HELPER_MODULE_NAME}${helperExtension(changed.map((entry) => entry.file))}`);
  if (placed === helper.path) return;
  helper.path = placed;
  for (const entry of changed) {
    const again = await rewriteFile(entry.file, args, bounds, placed);
    if (again) Object.assign(entry, again);
  }
}

interface ModuleText {
  path: string;
  text: string;
  existing: HelperChoice['existing'];
}

/**
 * A helper module's new text: the pieces every file that imports it uses (added to an existing module, whose own
 * text stays), laid out like the first of those files and the repository's settings, formatted with its formatter;
 * null where nothing changes. A TypeScript module that does not type-check in the project rolls back its importers.
 */
async function finishHelperModule(helper: HelperChoice, rewritten: Rewritten[], args: FixArgs, bounds: DrainBounds, verifier: RewriteVerifier | undefined): Promise<ModuleText | null> {
  const importers = rewritten.filter((entry) => entry.output !== null && entry.helperPieces.length > 0 && helper.files.includes(entry.file));
  if (importers.length === 0) return null;
  const pieces = new Set(importers.flatMap((entry) => entry.helperPieces));
  const style = detectStyle(importers[0].source.replace(/^\uFEFF/, ''), isTypeScriptPath(helper.path), styleSettingsFor(helper.path));
  const explicit = args.drainTimeoutMs !== undefined || args.drainMaxBytes !== undefined;
  const text = helper.existing ? extendHelperModule(helper.existing, pieces, style, explicit ? bounds : undefined) : helperModuleText(pieces, style, bounds);
  if (text === null) return null;
  const formatted = (await formatRewrite(helper.path, null, text)).text;
  if (verifier && isTypeScriptPath(helper.path) && (args.verify === 'on' || hasTsconfig(helper.path))) {
    const [diagnostic] = await verifier.diagnosticsOf(helper.path, formatted, importers[0].file);
    if (diagnostic !== undefined) {
      for (const entry of importers) rollBack(entry, `rolled back: the helper module ${path.basename(helper.path)} does not type-check here: ${diagnostic}`);
      return null;
    }
  }
  return { path: helper.path, text: formatted, existing: helper.existing };
}

/** Type-checks a rewritten TypeScript file (by default where a tsconfig.json applies): a rewrite that adds a diagnostic is rolled back. */
async function verifyTypes(entry: Rewritten, args: FixArgs, verifier: RewriteVerifier, module: ModuleText | null): Promise<void> {
  if (entry.output === null || !isTypeScriptPath(entry.file) || !(args.verify === 'on' || hasTsconfig(entry.file))) return;
  const alongside = module && entry.helperPieces.length > 0 ? [{ path: module.path, text: module.text }] : [];
  const [added] = await verifier.addedDiagnostics(entry.file, entry.source, entry.output, alongside);
  if (added !== undefined) rollBack(entry, `rolled back: the rewrite adds a TypeScript diagnostic: ${added}`);
}

function rollBack(entry: Rewritten, reason: string): void {
  entry.output = null;
  entry.helperPieces = [];
  entry.sites = entry.sites.map((site) => (site.status === 'fixed' ? { line: site.line, column: site.column, status: 'manual', reason } : site));
}

function messageOf(error: unknown): string {
  const code = errorCode(error);
  if (code !== undefined) return `${code} ${error instanceof Error ? error.message : ''}`.trim();
  return error instanceof Error ? error.message : String(error);
}
