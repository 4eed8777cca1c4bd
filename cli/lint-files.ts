import { readFile } from 'node:fs/promises';
import type { ESLint } from 'eslint';
import { closeCandidatePattern } from '../rules/index.js';
import { mayHoldImplicitClose } from './for-await-check.js';
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

const READ_CONCURRENCY = 16;

async function mapInOrder<T, R>(items: readonly T[], concurrency: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const output = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      output[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return output;
}

/**
 * Lints files (absolute paths): reads each once, skips the parse of files the pre-filter rules
 * out (they get a clean result), lints the others from the text read. One result per file, in
 * the order given.
 */
export async function lintFiles(files: readonly string[], options: LintFilesOptions): Promise<ESLint.LintResult[]> {
  const candidate = closeCandidatePattern();
  const prefilter = options.prefilter ?? true;
  const linter = new TextLinter({ cwd: options.cwd, types: options.types });
  const results = await mapInOrder(files, READ_CONCURRENCY, async (filePath) => {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      return unreadableResult(filePath, error);
    }
    if (prefilter && (!candidate.test(text) || !mayHoldImplicitClose(text, filePath))) return cleanResult(filePath);
    return linter.lint(text, filePath);
  });
  return linter.finish(results);
}
