import { statSync } from 'node:fs';
import type { ESLint } from 'eslint';
import { settled, type Prefilter } from '../front-ends/javascript-prefilter.js';
import { OxlintEngine, textLength, type OxlintRun, type SourceFile } from '../engines/oxlint-engine.js';
import { FRONT_ENDS, frontEndOf, type FrontEnd } from '../front-ends/registry.js';
import { cleanResult, notCheckedResult } from '../shared/results.js';
import type { CliRuleOptions } from '../shared/rule-args.js';
import { maxFileBytes, readSourceText } from '../shared/source-text.js';
import { TextLinter } from '../engines/text-linter.js';
import { InProcessWork, allowOptimizingCompiler } from '../engines/v8-tiering.js';

export interface LintFilesOptions {
  /** The user's working directory. */
  cwd: string;
  /** Type-aware linting (`--types`): always through ESLint (oxlint gives JS plugins no type information). */
  types?: boolean;
  /** The rule options given on the command line (`--terminal-pattern`, `--close-method`). */
  ruleOptions?: CliRuleOptions;
  /**
   * Skip parsing files whose text cannot contain a close (default true). Turning it off
   * (`DRAINGUARD_NO_PREFILTER=1` in the CLI) is a debugging aid: the results must not change.
   */
  prefilter?: boolean;
  /** Files named on the command line: always parsed, so their syntax errors are reported. */
  named?: ReadonlySet<string>;
  /**
   * `native`: ESLint in this process, parsing with oxc-parser (cli/engines/native-parser.ts); `eslint`:
   * ESLint in this process with the usual parsers (espree, typescript-eslint's); `oxlint`: the rule
   * through oxlint's JS plugin host, and natively in process for the files oxlint leaves (see
   * OxlintEngine); `auto` (default): oxlint when it is installed and costs less than linting in
   * process (oxlintIsCheaper), else native. The reports are the same.
   */
  engine?: Engine;
  /**
   * Results exactly as ESLint gives them, suggestions included (`--format json`): oxlint's JSON has
   * no suggestions, so the plugin it runs records them (cli/engines/oxlint-plugin.ts), and a file it reports
   * on whose suggestions were not recorded is linted again by ESLint. Without it (stylish, SARIF,
   * which show no suggestions) oxlint's messages are used as they are.
   */
  suggestions?: boolean;
}

export type Engine = 'auto' | 'native' | 'eslint' | 'oxlint';
export const ENGINES: readonly Engine[] = ['auto', 'native', 'eslint', 'oxlint'];

export function isEngine(name: string): name is Engine {
  return ENGINES.some((engine) => engine === name);
}

/**
 * What each engine costs, in CPU milliseconds on this project's 2-core machine (bench/RESULTS.md, issue
 * 19): in process, loading ESLint's Linter, the parser and the plugin's first run, then per KB of text;
 * through oxlint, starting a process (Node, oxlint, its plugin host and drainguard's plugin), then per
 * KB, shared between two processes that run beside this one.
 */
const IN_PROCESS_START_MS = 150;
const IN_PROCESS_MS_PER_KB = 2.4;
const OXLINT_START_MS = 300;
const ONE_OXLINT_PROCESS_MS_PER_KB = 1.6;
const OXLINT_MS_PER_KB = ONE_OXLINT_PROCESS_MS_PER_KB / 2;

/**
 * Whether oxlint lints `bytes` of text sooner than this process would: by what each costs, not by bytes
 * alone. In process, ESLint's start is paid only once: not at all when some file needs ESLint anyway.
 */
function oxlintIsCheaper(bytes: number, eslintLoadedAnyway: boolean): boolean {
  const kb = bytes / 1024;
  const inProcess = (eslintLoadedAnyway ? 0 : IN_PROCESS_START_MS) + IN_PROCESS_MS_PER_KB * kb;
  return OXLINT_START_MS + OXLINT_MS_PER_KB * kb < inProcess;
}

/**
 * How much of `bytes` this process lints itself while one oxlint process lints the rest, so that both end at about
 * the same time: this process is idle once it has read every file. None when `oxlintProcesses` processes alone (each
 * on a part, each on its own core) would end sooner: this process lints a KB at half as much again as oxlint, so a
 * share pays only while oxlint's start weighs (measured on the SDK mix, 1,132 KB: one oxlint process beside a share
 * of 490 KB here 2.0 s, two oxlint processes alone 1.6-1.75 s; on 265 KB the share 0.85 s, two processes 0.93 s).
 */
export function inProcessShare(bytes: number, eslintLoadedAnyway: boolean, oxlintProcesses = 1): number {
  const kb = bytes / 1024;
  const inProcessStart = eslintLoadedAnyway ? 0 : IN_PROCESS_START_MS;
  const shareKb = Math.max(0, Math.min(kb, (OXLINT_START_MS - inProcessStart + ONE_OXLINT_PROCESS_MS_PER_KB * kb) / (IN_PROCESS_MS_PER_KB + ONE_OXLINT_PROCESS_MS_PER_KB)));
  const withShare = Math.max(inProcessStart + IN_PROCESS_MS_PER_KB * shareKb, OXLINT_START_MS + ONE_OXLINT_PROCESS_MS_PER_KB * (kb - shareKb));
  const oxlintAlone = OXLINT_START_MS + (ONE_OXLINT_PROCESS_MS_PER_KB * kb) / oxlintProcesses;
  return oxlintAlone < withShare ? 0 : shareKb * 1024;
}

/**
 * How many oxlint processes the text waiting so far will take (engine auto): one beside this process's share, or as
 * many as finish() starts once they alone end sooner (see inProcessShare).
 */
function processesWorthStarting(oxlint: OxlintRun, eslintLoadedAnyway: boolean): number {
  const processes = oxlint.processesToFinish();
  return processes > 1 && inProcessShare(oxlint.waitingBytes, eslintLoadedAnyway, processes) > 0 ? 1 : processes;
}

export interface LintedFiles {
  /** One result per file, in the order given. */
  results: ESLint.LintResult[];
  /** How many files were parsed (the others were ruled out by the pre-filter or could not be read). */
  parsed: number;
}

/**
 * Lints files (absolute paths): reads each once, skips the parse of files the pre-filter rules
 * out (they get a clean result), lints the others from the text read. With oxlint, the files it
 * can take are handed to it as they are found (it parses them on the other cores meanwhile), and
 * ESLint lints the others here; a file oxlint leaves (it does not parse there) is linted by ESLint.
 */
export async function lintFiles(files: readonly string[], options: LintFilesOptions): Promise<LintedFiles> {
  const prefilters = new Map(FRONT_ENDS.map((frontEnd): [FrontEnd, Prefilter] => [frontEnd, frontEnd.prefilter(options.ruleOptions)]));
  const named = options.named ?? new Set<string>();
  const engine = options.types ? 'eslint' : (options.engine ?? 'auto');
  // Type-aware linting builds TypeScript programs: always long enough for V8's optimizing compiler.
  if (options.types) allowOptimizingCompiler();
  const inProcess = new InProcessWork();
  const results = new Map<string, ESLint.LintResult>();
  let linter: TextLinter | undefined;
  const eslintResults: ESLint.LintResult[] = [];
  const lintWithESLint = async ({ filePath, text }: SourceFile): Promise<void> => {
    linter ??= new TextLinter({ cwd: options.cwd, types: options.types, ruleOptions: options.ruleOptions, native: engine !== 'eslint' });
    eslintResults.push(await linter.lint(text, filePath));
  };

  // Files oxlint could take, held until there is enough text to repay starting it (engine auto).
  const held: SourceFile[] = [];
  let heldBytes = 0;
  let oxlint: OxlintRun | null = null;
  let oxlintMissing = false;
  const handed: SourceFile[] = [];
  // Files for ESLint, linted after the loop: oxlint's last batch then starts as early as it can.
  const forESLint: SourceFile[] = [];
  const checksWaiting = new Map<SourceFile, () => Promise<boolean>>();
  let parsed = 0;
  // Synchronous reads: most files are only read and tested, and from the page cache a blocking read
  // costs a fraction of an async one (open, stat, read, close as separate thread-pool round trips).
  const inProcessOnly = engine === 'eslint' || engine === 'native';
  const sizeLimit = maxFileBytes();
  const order = inProcessOnly ? files : biggestFirst(files);
  for (const [index, filePath] of order.entries()) {
    const filesLeftToRead = order.length - index - 1;
    const read = readSourceText(filePath, sizeLimit);
    if (read.text === undefined) {
      results.set(filePath, notCheckedResult(filePath, read.problem));
      continue;
    }
    const { text } = read;
    const frontEnd = frontEndOf(filePath);
    const mayReport = prefilters.get(frontEnd)!;
    const prefilter = options.prefilter !== false && !named.has(filePath);
    if (read.problem) {
      // Binary or not UTF-8: reported, unless the pre-filter rules the text out (as a syntax error there goes unseen).
      const mayHoldClose = !prefilter || (await settledSafely(mayReport, text, filePath));
      results.set(filePath, mayHoldClose ? notCheckedResult(filePath, read.problem) : cleanResult(filePath));
      continue;
    }
    if (frontEnd.lint.kind === 'own-analysis') {
      // A front end with its own analysis lints here, one file at a time, with the same rule options.
      if (prefilter && !(await settled(mayReport(text, filePath)))) {
        results.set(filePath, cleanResult(filePath));
        continue;
      }
      parsed++;
      inProcess.add(text.length);
      results.set(filePath, await frontEnd.lint.lintFile(text, filePath, options.ruleOptions));
      continue;
    }
    let answer = !prefilter || mayReport(text, filePath);
    // Only a parse can tell. oxlint, chosen but not yet at work, would wait for the check: it takes the file unchecked
    // (it parses it anyway), and the check is made only if the file is kept in this process after all. Else the check
    // is made now (awaited: the loop yields for these files alone), while any oxlint process at work goes on.
    let waitingCheck: (() => Promise<boolean>) | undefined;
    if (typeof answer !== 'boolean') {
      if (oxlint !== null && oxlint.batchesStarted === 0 && OxlintEngine.accepts(filePath, text)) [waitingCheck, answer] = [answer, true];
      else answer = await answer();
    }
    if (!answer) {
      results.set(filePath, cleanResult(filePath));
      continue;
    }
    parsed++;
    const file = { filePath, text };
    if (waitingCheck) checksWaiting.set(file, waitingCheck);
    // A file whose check waits was accepted by oxlint above (and oxlint runs only where not in process only).
    if (!waitingCheck && (inProcessOnly || !OxlintEngine.accepts(filePath, text))) {
      forESLint.push(file);
    } else if (oxlint) {
      oxlint.add(file, filesLeftToRead);
      handed.push(file);
    } else {
      held.push(file);
      heldBytes += text.length;
      if (!oxlintMissing && (engine === 'oxlint' || oxlintIsCheaper(heldBytes, forESLint.length > 0))) {
        oxlint = OxlintEngine.find()?.start(options.cwd, options.ruleOptions) ?? null;
        oxlintMissing = oxlint === null;
        for (const waiting of oxlint ? held.splice(0) : []) {
          oxlint!.add(waiting, filesLeftToRead);
          handed.push(waiting);
        }
      }
    }
    oxlint?.prestart(engine === 'auto' ? processesWorthStarting(oxlint, forESLint.length > 0) : oxlint.processesToFinish());
  }

  // Everything still waits for oxlint (no batch went early): this process, idle from here, takes a share of it.
  const keptBack = oxlint && engine === 'auto' && oxlint.batchesStarted === 0 ? oxlint.takeBack(inProcessShare(oxlint.waitingBytes, forESLint.length > 0, oxlint.processesToFinish())) : [];
  const oxlintDone = oxlint?.finish(keptBack.length > 0 ? 1 : undefined);
  const linted = [...forESLint, ...held];
  for (const file of keptBack) {
    const check = checksWaiting.get(file);
    if (!check || (await check())) linted.push(file);
    else {
      results.set(file.filePath, cleanResult(file.filePath));
      parsed--;
    }
  }
  inProcess.add(textLength(linted));
  for (const file of linted) await lintWithESLint(file);
  if (oxlint) {
    const fromOxlint = await oxlintDone!;
    const kept = new Set(keptBack);
    for (const file of handed.filter((file) => !kept.has(file))) {
      const result = fromOxlint.results.get(file.filePath);
      // A file oxlint left (it does not parse there), or one whose suggestions are asked for but were not recorded: ESLint.
      if (result && !(options.suggestions && fromOxlint.unsuggested.has(file.filePath))) results.set(file.filePath, result);
      else {
        inProcess.add(file.text.length);
        await lintWithESLint(file);
      }
    }
  }
  if (linter) for (const result of await linter.finish(eslintResults)) results.set(result.filePath, result);
  return { results: files.map((filePath) => results.get(filePath)!), parsed };
}

/**
 * With oxlint, the biggest files are read first: one large bundle can take oxlint seconds, which
 * then overlap with reading and testing the many small files instead of coming after them.
 */
function biggestFirst(files: readonly string[]): string[] {
  const sizes = new Map<string, number>();
  for (const file of files) {
    try {
      sizes.set(file, statSync(file).size);
    } catch {
      sizes.set(file, 0);
    }
  }
  return [...files].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
}

/** The pre-filter's settled answer; one that throws (text it cannot tokenize) answers that the file may hold a close. */
async function settledSafely(prefilter: Prefilter, text: string, filePath: string): Promise<boolean> {
  try {
    return await settled(prefilter(text, filePath));
  } catch {
    return true;
  }
}
