import { readFileSync } from 'node:fs';
import type { ESLint } from 'eslint';
import { mayReport } from './for-await-check.js';
import { cleanResult, unreadableResult } from './results.js';
import { TextLinter } from './text-linter.js';

export interface LintFilesOptions {
  /** The user's working directory. */
  cwd: string;
  /** Type-aware linting (`--types`). */
  types?: boolean;
  /**
   * Skip parsing files whose text cannot contain a close (default true). Turning it off
   * (`DRAINGUARD_NO_PREFILTER=1` in the CLI) is a debugging aid: the results must not change.
   */
  prefilter?: boolean;
}

export interface LintedFiles {
  /** One result per file, in the order given. */
  results: ESLint.LintResult[];
  /** How many files were parsed (the others were ruled out by the pre-filter or could not be read). */
  parsed: number;
}

/**
 * Lints files (absolute paths): reads each once, skips the parse of files the pre-filter rules
 * out (they get a clean result), lints the others from the text read.
 */
export async function lintFiles(files: readonly string[], options: LintFilesOptions): Promise<LintedFiles> {
  const prefilter = options.prefilter ?? true;
  const linter = new TextLinter({ cwd: options.cwd, types: options.types });
  // Synchronous reads: most files are only read and tested, and from the page cache a blocking read
  // costs a fraction of an async one (open, stat, read, close as separate thread-pool round trips).
  const results: ESLint.LintResult[] = [];
  let parsed = 0;
  for (const filePath of files) {
    let text: string;
    try {
      text = readFileSync(filePath, 'utf8');
    } catch (error) {
      results.push(unreadableResult(filePath, error));
      continue;
    }
    if (prefilter && !mayReport(text, filePath)) results.push(cleanResult(filePath));
    else {
      parsed++;
      results.push(await linter.lint(text, filePath));
    }
  }
  return { results: await linter.finish(results), parsed };
}
