import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { InFileHelperTest } from '../front-ends/front-end.js';
import { stdoutSupportsColor } from '../shared/color.js';
import { errorCode } from '../shared/errors.js';
import { diffPath, diffRoot } from './diff-paths.js';
import type { FixRun } from './fix-run.js';
import type { WrittenFile } from './formatting-report.js';
import { helperTestPaths, writeHelperTest, type HelperTest } from './helper-test.js';
import type { ModuleText, Rewritten } from './in-memory.js';
import { colorDiff, unifiedDiff, type FileReport } from './report.js';

/** What a run writes, in this order: the helper modules, their tests, the rewritten files, the tests of in-file helpers. */
export interface FilesToWrite {
  modules: readonly ModuleText[];
  tests: readonly HelperTest[];
  /** Every file the run read and rewrote or failed on (each is reported), not only those with a text to write. */
  rewritten: readonly Rewritten[];
  inFileTests: readonly InFileHelperTest[];
}

export interface WriteOutcome {
  /** A report for each file, in the order written. */
  reports: FileReport[];
  written: WrittenFile[];
  /** Files with a text to write that Ctrl-C kept from being written. */
  notWritten: number;
}

/**
 * Writes the run's files (nothing with --dry), each atomically, showing each diff with --print, until Ctrl-C: a file
 * whose helper module could not be written is not written either.
 */
export async function writeFiles(run: FixRun, files: FilesToWrite): Promise<WriteOutcome> {
  if (!run.signal.aborted) run.phase = 'writing';
  const writing = files.rewritten.filter((entry) => entry.output !== null);
  const writer = new Writer(run, await patchRootFor(run, files, writing), writing.length);
  for (const module of files.modules) await writer.helperModule(module);
  for (const test of files.tests) await writer.helperTest(test);
  for (const entry of files.rewritten) await writer.rewrittenFile(entry);
  for (const test of files.inFileTests) await writer.inFileHelperTest(test);
  run.progress.show('');
  return { reports: writer.reports, written: writer.written, notWritten: writer.notWritten };
}

/**
 * With --print, where the diff paths start (the git work tree's top level, else the files' common directory), said on
 * stderr where that is not the working directory.
 */
async function patchRootFor(run: FixRun, files: FilesToWrite, writing: readonly Rewritten[]): Promise<string | undefined> {
  if (!run.args.print || run.signal.aborted) return undefined;
  const paths = [...writing.map((entry) => entry.file), ...files.modules.map((module) => module.path), ...helperTestPaths(files.tests), ...helperTestPaths(files.inFileTests)];
  const patchRoot = await diffRoot(run.cwd, paths);
  if (!patchRoot.isCwd && !run.args.json) {
    process.stderr.write(`drainguard fix: the diff paths are relative to ${patchRoot.root} (not every file is under this directory): apply the diff there.\n`);
  }
  return patchRoot.root;
}

/** Writes one file after the other and keeps the reports; after Ctrl-C, only counts what is left unwritten. */
class Writer {
  readonly reports: FileReport[] = [];
  readonly written: WrittenFile[] = [];
  notWritten = 0;
  /** Helper modules that could not be written. */
  private readonly unwritten = new Set<string>();
  private writes = 0;
  private readonly color = stdoutSupportsColor();

  constructor(
    private readonly run: FixRun,
    private readonly patchRoot: string | undefined,
    private readonly filesToWrite: number,
  ) {}

  async helperModule(module: ModuleText): Promise<void> {
    if (this.run.signal.aborted) {
      this.notWritten++;
      return;
    }
    const report: FileReport = { path: module.path, changed: true, sites: [], helper: module.existing ? 'updated' : 'created' };
    if (this.patchRoot) report.diff = unifiedDiff(diffPath(this.patchRoot, module.path), module.existing?.text ?? null, module.text);
    if (!this.run.args.dry) {
      try {
        await mkdir(path.dirname(module.path), { recursive: true });
        await writeFileAtomic(module.path, module.text, { encoding: 'utf8' });
      } catch (error) {
        report.changed = false;
        report.error = `cannot write: ${messageOf(error)}`;
        this.unwritten.add(module.path);
      }
    }
    if (report.changed) this.written.push({ path: module.path, problem: module.formatProblem });
    this.reports.push(report);
    this.showDiff(report);
  }

  async helperTest(test: HelperTest): Promise<void> {
    if (this.run.signal.aborted) {
      if (test.text !== null) this.notWritten++;
      return;
    }
    const report = await writeHelperTest(test, { dry: this.run.args.dry, patchRoot: this.patchRoot, moduleWritten: !this.unwritten.has(test.modulePath) });
    if (report.changed) this.written.push({ path: test.path, problem: test.formatProblem });
    this.reports.push(report);
    this.showDiff(report);
  }

  async rewrittenFile(entry: Rewritten): Promise<void> {
    if (this.run.signal.aborted) {
      if (entry.output !== null) this.notWritten++;
      return;
    }
    const report: FileReport = { path: entry.file, changed: false, sites: entry.sites, ...(entry.error ? { error: entry.error } : {}) };
    this.reports.push(report);
    if (entry.output === null) return;
    if (this.patchRoot) report.diff = unifiedDiff(diffPath(this.patchRoot, entry.file), entry.source, entry.output);
    if (entry.helperPieces.length > 0 && this.unwritten.has(this.run.choiceOf.get(entry.file)?.path ?? '')) {
      report.error = 'not written: the helper module it imports could not be written';
      return;
    }
    if (!this.run.args.dry) {
      this.run.progress.show(`writing [${++this.writes}/${this.filesToWrite}] ${path.relative(this.run.cwd, entry.file)}`);
      try {
        await writeFileAtomic(entry.file, entry.output, { encoding: 'utf8' });
      } catch (error) {
        report.error = `cannot write: ${messageOf(error)}`;
        return;
      }
    }
    report.changed = true;
    this.written.push({ path: entry.file, problem: entry.formatProblem });
    this.showDiff(report);
  }

  async inFileHelperTest(test: InFileHelperTest): Promise<void> {
    if (this.run.signal.aborted) {
      if (test.text !== null) this.notWritten++;
      return;
    }
    const moduleWritten = this.reports.some((report) => report.path === test.modulePath && report.changed);
    const report = await writeHelperTest(test, { dry: this.run.args.dry, patchRoot: this.patchRoot, moduleWritten, unwritten: 'its module could not be written' });
    if (report.changed) this.written.push({ path: test.path });
    this.reports.push(report);
    this.showDiff(report);
  }

  private showDiff(report: FileReport): void {
    if (!report.diff || this.run.args.json) return;
    process.stdout.write(this.color ? `${colorDiff(report.diff)}\n` : `${report.diff}\n`);
  }
}

function messageOf(error: unknown): string {
  const code = errorCode(error);
  if (code !== undefined) return `${code} ${error instanceof Error ? error.message : ''}`.trim();
  return error instanceof Error ? error.message : String(error);
}
