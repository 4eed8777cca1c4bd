import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESLint, Linter } from 'eslint';
import { RULE_ID } from '../shared/rule-id.js';
import { lineStartsOf, positionAt } from '../shared/line-starts.js';
import { needsESLintDirectives } from './eslint-directives.js';
import { OxlintProcess, type LaunchPaths, type OxlintDiagnostic } from './oxlint-process.js';
import type { SuggestionRecord } from './oxlint-suggestions.js';
import { makeResult } from '../shared/results.js';
import { ruleEntry, type CliRuleOptions } from '../shared/rule-args.js';

/** The code oxlint gives drainguard's reports: `<plugin>(<rule>)`. */
const OXLINT_CODE = RULE_ID.replace(/^([^/]+)\/(.+)$/, '$1($2)');
/**
 * oxlint runs at a time. Each one parses on every core but runs JS plugins on one thread: two share the
 * rule's work between two threads, as oxlint alone cannot.
 */
const CONCURRENT_RUNS = 2;
/**
 * A batch starts before the caller has read every file only when it is big (one large bundle can take
 * oxlint seconds) and many files are left to read (the reading then overlaps with oxlint's work); each
 * process costs CPU to start, so the rest goes to as few processes as possible.
 */
const EARLY_BATCH_BYTES = 1024 * 1024;
const EARLY_BATCH_MIN_FILES_LEFT = 2000;
/** Below this much text a part of the last batch does not repay a process of its own. */
const PART_MIN_BYTES = 256 * 1024;
/** Limits of one batch, for memory: oxlint holds all of a batch's files. */
const BATCH_BYTES = 32 * 1024 * 1024;
const BATCH_FILES = 500;
export type { OxlintDiagnostic } from './oxlint-process.js';

export interface SourceFile {
  filePath: string;
  text: string;
}

/** The text of `files`, in characters (what the engines' costs are measured in). */
export function textLength(files: readonly SourceFile[]): number {
  return files.reduce((length, file) => length + file.text.length, 0);
}

/**
 * Runs drainguard's rule through oxlint's JS plugin host: oxlint parses in native code and runs the
 * same rule module (code path analysis included), several files at once.
 */
export class OxlintEngine {
  private constructor(private readonly paths: LaunchPaths) {}

  /** The engine, or null when the oxlint package or its native binary is not installed here. */
  static find(): OxlintEngine | null {
    try {
      const require = createRequire(import.meta.url);
      const packageDir = path.dirname(require.resolve('oxlint/package.json'));
      // dist/oxlint-plugin.js and dist/oxlint-launcher.js, next to the plugin's own entry (cli/engines/oxlint-plugin.ts, cli/engines/oxlint-launcher.ts).
      const dist = path.dirname(fileURLToPath(import.meta.resolve('drainguard')));
      const paths = { launcher: path.join(dist, 'oxlint-launcher.js'), oxlintBin: path.join(packageDir, 'bin', 'oxlint'), plugin: path.join(dist, 'oxlint-plugin.js') };
      if (!existsSync(paths.plugin) || !existsSync(paths.launcher)) return null;
      return new OxlintEngine(paths);
    } catch {
      return null;
    }
  }

  /**
   * Whether a file can go to oxlint at all (see needsESLintDirectives). oxlint silently skips files named as minified
   * (`x.min.js`, `x-min.js`, `x_min.js`), which would then read as clean: those go to ESLint.
   */
  static accepts(filePath: string, text: string): boolean {
    return !/[._-]min\.[^./\\]+$/i.test(filePath) && !needsESLintDirectives(text);
  }

  /** Starts a run that takes files as they are found (see OxlintRun). */
  start(cwd: string, ruleOptions: CliRuleOptions = {}): OxlintRun {
    return new OxlintRun(this, cwd, ruleOptions);
  }

  /** Only drainguard's rule, with the given options: no built-in plugin, no category of oxlint's own rules. */
  config(ruleOptions: CliRuleOptions = {}): object {
    return { plugins: [], categories: { correctness: 'off' }, jsPlugins: [this.paths.plugin], rules: { [RULE_ID]: ruleEntry(ruleOptions) } };
  }

  /** Starts an oxlint process, which lints the files it is handed later (see OxlintProcess). */
  launch(cwd: string, suggestionsFile: string): OxlintProcess {
    return new OxlintProcess(this.paths, cwd, suggestionsFile);
  }
}

/**
 * Files handed to oxlint while the caller goes on reading: a batch starts as soon as enough text is
 * waiting, so oxlint parses on the other cores while the caller reads, tests and lints the rest.
 */
export class OxlintRun {
  private readonly configDir: string;
  private readonly config: string;
  private readonly done: Promise<OxlintResults>[] = [];
  private readonly queued: (() => void)[] = [];
  private running = 0;
  private batch: SourceFile[] = [];
  private bytes = 0;
  private flushes = 0;
  private batchesStartedCount = 0;
  private launched = 0;
  /** Processes started ahead of their batch (see prestart). */
  private readonly ready: OxlintProcess[] = [];

  constructor(
    private readonly engine: OxlintEngine,
    private readonly cwd: string,
    ruleOptions: CliRuleOptions,
  ) {
    this.configDir = mkdtempSync(path.join(tmpdir(), 'drainguard-oxlint-'));
    this.config = path.join(this.configDir, 'oxlintrc.json');
    writeFileSync(this.config, JSON.stringify(engine.config(ruleOptions)));
  }

  /** Batches handed to an oxlint process so far (counted where a process gets its batch, not where a batch is queued). */
  get batchesStarted(): number {
    return this.batchesStartedCount;
  }

  /**
   * Starts oxlint processes ahead of their batches, up to `processes` in all with those running: each loads oxlint and
   * the plugin while the caller goes on reading, and takes the next batch. One not needed by the end
   * exits then.
   */
  prestart(processes: number): void {
    while (this.ready.length + this.running < Math.min(processes, CONCURRENT_RUNS)) this.ready.push(this.launch());
  }

  private launch(): OxlintProcess {
    this.launched++;
    return this.engine.launch(this.cwd, path.join(this.configDir, `suggestions-${this.launched}.jsonl`));
  }

  /** Adds a file to the waiting batch; `filesLeftToRead` says how long the caller will go on reading. */
  add(file: SourceFile, filesLeftToRead = 0): void {
    this.batch.push(file);
    this.bytes += file.text.length;
    const early = this.flushes === 0 && this.bytes >= EARLY_BATCH_BYTES && filesLeftToRead >= EARLY_BATCH_MIN_FILES_LEFT;
    if (early || this.bytes >= BATCH_BYTES || this.batch.length >= BATCH_FILES) this.flush();
  }

  /** Bytes of text in the batch not yet handed to a process. */
  get waitingBytes(): number {
    return this.bytes;
  }

  /**
   * Takes files back from the waiting batch, up to `bytes` of text (the biggest that fit first), for the caller to
   * lint itself; they are not handed to oxlint.
   */
  takeBack(bytes: number): SourceFile[] {
    const taken: SourceFile[] = [];
    let room = bytes;
    for (const file of [...this.batch].sort((a, b) => b.text.length - a.text.length)) {
      if (file.text.length > room) continue;
      taken.push(file);
      room -= file.text.length;
    }
    const takenSet = new Set(taken);
    this.batch = this.batch.filter((file) => !takenSet.has(file));
    this.bytes -= bytes - room;
    return taken;
  }

  /** How many processes {@link finish} shares the waiting batch among: the free ones, at most `processes`, each with a part worth a process. */
  processesToFinish(processes = CONCURRENT_RUNS): number {
    const free = Math.max(1, Math.min(processes, CONCURRENT_RUNS) - this.running);
    return Math.max(1, Math.min(free, Math.ceil(this.bytes / PART_MIN_BYTES), this.batch.length));
  }

  /**
   * Results shaped exactly as ESLint's for the files oxlint handled; a file it leaves out (it does
   * not parse there, or oxlint failed) is for the ESLint path to lint. The waiting batch is shared out
   * among the free processes (at most `processes`), in parts of about the same size.
   */
  async finish(processes = CONCURRENT_RUNS): Promise<OxlintResults> {
    for (const part of splitEvenly(this.batch, this.processesToFinish(processes))) {
      this.batch = part;
      this.flush();
    }
    // Every batch has its process now (a queued one waits for a running one): those still waiting are not needed.
    for (const unneeded of this.ready.splice(0)) unneeded.dismiss();
    try {
      const all = await Promise.all(this.done);
      return {
        results: new Map(all.flatMap(({ results }) => [...results])),
        unsuggested: new Set(all.flatMap(({ unsuggested }) => [...unsuggested])),
      };
    } finally {
      rmSync(this.configDir, { recursive: true, force: true });
    }
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.bytes = 0;
    this.flushes++;
    const run = async (): Promise<OxlintResults> => {
      try {
        this.batchesStartedCount++;
        const oxlint = this.ready.shift() ?? this.launch();
        const diagnostics = await oxlint.lint(
          this.config,
          batch.map((file) => file.filePath),
          textLength(batch),
        );
        return diagnostics ? toResults(batch, diagnostics, readSuggestions(oxlint.suggestionsFile, this.cwd), this.cwd) : NO_RESULTS;
      } catch {
        // Whatever went wrong with this batch (output oxlint never gave before), its files are linted in process.
        return NO_RESULTS;
      } finally {
        this.running--;
        this.queued.shift()?.();
      }
    };
    this.done.push(this.inSlot(run));
  }

  /**
   * Runs `run` when a slot is free (at most CONCURRENT_RUNS oxlint processes at once). With a free
   * slot the process is spawned now, synchronously: the caller's read-and-test loop does not yield
   * to the event loop, and a spawn left to a microtask would wait for the whole loop.
   */
  private inSlot(run: () => Promise<OxlintResults>): Promise<OxlintResults> {
    if (this.running < CONCURRENT_RUNS) {
      this.running++;
      return run();
    }
    return new Promise((resolve) => {
      this.queued.push(() => {
        this.running++;
        resolve(run());
      });
    });
  }
}

/** `files` in at most `parts` groups of about the same size (the biggest file first, each to the smallest group). */
function splitEvenly(files: readonly SourceFile[], parts: number): SourceFile[][] {
  const groups = Array.from({ length: Math.max(1, Math.min(parts, files.length)) }, (): { files: SourceFile[]; bytes: number } => ({ files: [], bytes: 0 }));
  for (const file of [...files].sort((a, b) => b.text.length - a.text.length)) {
    const smallest = groups.reduce((least, group) => (group.bytes < least.bytes ? group : least));
    smallest.files.push(file);
    smallest.bytes += file.text.length;
  }
  return groups.map((group) => group.files).filter((group) => group.length > 0);
}

export interface OxlintResults {
  results: Map<string, ESLint.LintResult>;
  /** Files with reports whose suggestions the plugin did not record (or not safely: see toResults). */
  unsuggested: Set<string>;
}

const NO_RESULTS: OxlintResults = { results: new Map(), unsuggested: new Set() };

/** What the plugin recorded of a report: its message id and suggestions. */
export type RecordedReport = Pick<SuggestionRecord, 'messageId' | 'suggestions'>;

/** The plugin's records of one run, by file and report start (UTF-16 offset). */
function readSuggestions(file: string, cwd: string): Map<string, RecordedReport> {
  const records = new Map<string, RecordedReport>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return records;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    let record: SuggestionRecord;
    try {
      record = JSON.parse(line) as SuggestionRecord;
    } catch {
      continue; // a line cut short (the process was killed while writing): its report counts as unsuggested
    }
    records.set(`${path.resolve(cwd, record.filename)}:${record.start}`, { messageId: record.messageId, suggestions: record.suggestions });
  }
  return records;
}

/**
 * ESLint-shaped results for the files of a batch, with the suggestions the plugin recorded; a file
 * with a report that has no record is listed as unsuggested. A file with any diagnostic that is not
 * drainguard's (a parse error: no other rule runs) is left out; so is the whole batch when a
 * diagnostic names a file that is not in it (a path oxlint spelled differently), or none (oxlint could not open a
 * file: "Failed to open file … stream did not contain valid UTF-8" comes without a filename): no file of the batch
 * could then be called clean.
 */
export function toResults(
  batch: readonly SourceFile[],
  diagnostics: readonly OxlintDiagnostic[],
  recorded: Map<string, RecordedReport>,
  cwd: string,
): OxlintResults {
  const byFile = new Map<string, OxlintDiagnostic[]>();
  const failed = new Set<string>();
  const inBatch = new Set(batch.map((file) => file.filePath));
  for (const diagnostic of diagnostics) {
    if (typeof diagnostic.filename !== 'string' || diagnostic.filename === '') return NO_RESULTS;
    const filePath = path.resolve(cwd, diagnostic.filename);
    if (!inBatch.has(filePath)) return NO_RESULTS;
    if (diagnostic.code !== OXLINT_CODE || !diagnostic.labels?.[0]) failed.add(filePath);
    else byFile.set(filePath, [...(byFile.get(filePath) ?? []), diagnostic]);
  }
  const results = new Map<string, ESLint.LintResult>();
  const unsuggested = new Set<string>();
  for (const { filePath, text } of batch) {
    if (failed.has(filePath)) continue;
    const reported = byFile.get(filePath) ?? [];
    const lineStarts = reported.length > 0 ? lineStartsOf(text) : [];
    const messages = reported.map((diagnostic) => {
      // The plugin sees ranges in UTF-16 units, as ESLint does; oxlint's span counts UTF-8 bytes.
      const start = utf16Index(text, diagnostic.labels![0].span.offset);
      const report = recorded.get(`${filePath}:${start}`);
      const message = toMessage(diagnostic, text, lineStarts, start, report?.messageId);
      if (!report) unsuggested.add(filePath);
      else if (report.suggestions.length > 0) message.suggestions = report.suggestions;
      return message;
    });
    messages.sort((a, b) => a.line - b.line || a.column - b.column);
    results.set(filePath, makeResult(filePath, messages, [], text));
  }
  return { results, unsuggested };
}

/**
 * An ESLint message for one of oxlint's reports, which starts at `startIndex` (UTF-16 units): the span
 * is in UTF-8 bytes, ESLint counts UTF-16 units.
 */
function toMessage(diagnostic: OxlintDiagnostic, text: string, lineStarts: readonly number[], startIndex: number, messageId: string | undefined): Linter.LintMessage {
  const { offset, length } = diagnostic.labels![0].span;
  const start = position(lineStarts, startIndex);
  const end = position(lineStarts, utf16Index(text, offset + length));
  return {
    ruleId: RULE_ID,
    severity: 2,
    message: diagnostic.message,
    line: start.line,
    column: start.column,
    ...(messageId ? { messageId } : {}),
    endLine: end.line,
    endColumn: end.column,
  };
}

/** 1-based line and column (UTF-16 units, ESLint's line breaks), as ESLint gives a message, of a UTF-16 index. */
function position(lineStarts: readonly number[], index: number): { line: number; column: number } {
  const { line, column } = positionAt(lineStarts, index);
  return { line, column: column + 1 };
}

/** The UTF-16 index of a UTF-8 byte offset into `text`. */
function utf16Index(text: string, byteOffset: number): number {
  return Buffer.byteLength(text, 'utf8') === text.length ? byteOffset : Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').length;
}
