import { statSync } from 'node:fs';
import type { ESLint } from 'eslint';
import { lintsInProcessOnly, type Engine } from '../engines/engine-choice.js';
import type { SourceFile } from '../engines/oxlint-engine.js';
import { InProcessWork, allowOptimizingCompiler } from '../engines/v8-tiering.js';
import type { Linting } from '../front-ends/front-end.js';
import { settled, type Prefilter, type PrefilterAnswer } from '../front-ends/javascript-prefilter.js';
import { FRONT_ENDS, frontEndOf, type FrontEnd } from '../front-ends/registry.js';
import { cleanResult, notCheckedResult } from '../shared/results.js';
import type { CliRuleOptions } from '../shared/rule-args.js';
import { maxFileBytes, readSourceText, type SourceProblem } from '../shared/source-text.js';
import { EngineDispatch, type EngineDispatchOptions } from './engine-dispatch.js';
import type { LintTally } from './tally.js';

export interface LintFilesOptions extends EngineDispatchOptions {
  /**
   * Skip parsing files whose text cannot contain a close (default true). Turning it off
   * (`DRAINGUARD_NO_PREFILTER=1` in the CLI) is a debugging aid: the results must not change.
   */
  prefilter?: boolean;
  /** Files named on the command line: always parsed, so their syntax errors are reported. */
  named?: ReadonlySet<string>;
  /** The engine that runs the ESLint rule (cli/engines/engine-choice.ts); default `auto`. */
  engine?: Engine;
}

export interface LintedFiles {
  /** One result per file, in the order given. */
  results: ESLint.LintResult[];
  /** How many files were parsed (the others were ruled out by the pre-filter or could not be read). */
  parsed: number;
}

/**
 * Lints files (absolute paths): reads each once, gives a file its front end (cli/front-ends/registry.ts), skips the
 * parse of files the front end's pre-filter rules out (they get a clean result), and lints the others from the text
 * read: by the front end's own analysis here, or through the engines that run the ESLint rule (EngineDispatch).
 */
export async function lintFiles(files: readonly string[], options: LintFilesOptions): Promise<LintedFiles> {
  const engine = options.types ? 'eslint' : (options.engine ?? 'auto');
  // Type-aware linting builds TypeScript programs: always long enough for V8's optimizing compiler.
  if (options.types) allowOptimizingCompiler();
  const tally: LintTally = { results: new Map(), parsed: 0 };
  const inProcess = new InProcessWork();
  const engines = new EngineDispatch(engine, options, tally, inProcess);
  const prefilters = prefiltersFor(options.ruleOptions);
  const order = lintsInProcessOnly(engine) ? files : biggestFirst(files);
  const sizeLimit = maxFileBytes();
  for (const [index, filePath] of order.entries()) {
    // Synchronous reads: most files are only read and tested, and from the page cache a blocking read
    // costs a fraction of an async one (open, stat, read, close as separate thread-pool round trips).
    const read = readSourceText(filePath, sizeLimit);
    if (read.text === undefined) {
      tally.results.set(filePath, notCheckedResult(filePath, read.problem));
      continue;
    }
    const file = { filePath, text: read.text };
    const frontEnd = frontEndOf(filePath);
    const prefilter = options.prefilter !== false && !options.named?.has(filePath) ? prefilters.get(frontEnd)! : undefined;
    if (read.problem) {
      tally.results.set(filePath, await uncheckableResult(file, read.problem, prefilter));
      continue;
    }
    const answer = prefilter?.(file.text, filePath) ?? true;
    if (frontEnd.lint.kind === 'own-analysis') await lintWithOwnAnalysis(file, answer, frontEnd.lint, tally, inProcess, options.ruleOptions);
    else await engines.take(file, answer, order.length - index - 1);
  }
  await engines.finish();
  return { results: files.map((filePath) => tally.results.get(filePath)!), parsed: tally.parsed };
}

/** Each front end's pre-filter under the run's rule options. */
function prefiltersFor(ruleOptions: CliRuleOptions | undefined): Map<FrontEnd, Prefilter> {
  return new Map(FRONT_ENDS.map((frontEnd) => [frontEnd, frontEnd.prefilter(ruleOptions)]));
}

/**
 * A binary or non-UTF-8 file is reported as not checked, unless the pre-filter rules its text out (as a syntax error
 * there goes unseen); a pre-filter that throws on it (text it cannot tokenize) leaves it reported.
 */
async function uncheckableResult(file: SourceFile, problem: SourceProblem, prefilter: Prefilter | undefined): Promise<ESLint.LintResult> {
  const mayHoldClose = !prefilter || (await settledSafely(prefilter, file.text, file.filePath));
  return mayHoldClose ? notCheckedResult(file.filePath, problem) : cleanResult(file.filePath);
}

/** A file of a front end with its own analysis, linted here, one at a time, with the run's rule options. */
async function lintWithOwnAnalysis(
  file: SourceFile,
  answer: PrefilterAnswer,
  linting: Extract<Linting, { kind: 'own-analysis' }>,
  tally: LintTally,
  inProcess: InProcessWork,
  ruleOptions: CliRuleOptions | undefined,
): Promise<void> {
  if (!(await settled(answer))) {
    tally.results.set(file.filePath, cleanResult(file.filePath));
    return;
  }
  tally.parsed++;
  inProcess.add(file.text.length);
  tally.results.set(file.filePath, await linting.lintFile(file.text, file.filePath, ruleOptions));
}

/**
 * With oxlint, the biggest files are read first: one large bundle can take oxlint seconds, which
 * then overlap with reading and testing the many small files instead of coming after them. The files of a front end
 * with its own analysis (Python) never go to oxlint: they come last, in the order given and not looked at beforehand
 * (a Python repository's thousands of files need no size), and are linted here while oxlint works on the others.
 */
function biggestFirst(files: readonly string[]): string[] {
  const sizes = new Map<string, number>();
  const ownAnalysis: string[] = [];
  for (const file of files) {
    if (frontEndOf(file).lint.kind === 'own-analysis') {
      ownAnalysis.push(file);
      continue;
    }
    try {
      sizes.set(file, statSync(file).size);
    } catch {
      sizes.set(file, 0);
    }
  }
  return [...sizes.keys()].sort((a, b) => sizes.get(b)! - sizes.get(a)!).concat(ownAnalysis);
}

/** The pre-filter's settled answer; one that throws (text it cannot tokenize) answers that the file may hold a close. */
async function settledSafely(prefilter: Prefilter, text: string, filePath: string): Promise<boolean> {
  try {
    return await settled(prefilter(text, filePath));
  } catch {
    return true;
  }
}
