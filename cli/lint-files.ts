import { readFileSync } from 'node:fs';
import type { ESLint } from 'eslint';
import { mayReport } from './for-await-check.js';
import { OxlintEngine, type SourceFile } from './oxlint-engine.js';
import { cleanResult, unreadableResult } from './results.js';
import { TextLinter } from './text-linter.js';

export interface LintFilesOptions {
  /** The user's working directory. */
  cwd: string;
  /** Type-aware linting (`--types`): always through ESLint (oxlint gives JS plugins no type information). */
  types?: boolean;
  /**
   * Skip parsing files whose text cannot contain a close (default true). Turning it off
   * (`DRAINGUARD_NO_PREFILTER=1` in the CLI) is a debugging aid: the results must not change.
   */
  prefilter?: boolean;
  /**
   * `oxlint`: run the rule through oxlint's JS plugin host, and through ESLint for the files oxlint
   * leaves (see OxlintEngine); `eslint`: ESLint only; `auto` (default): oxlint when it is installed
   * and the files to parse are big enough to repay starting it. The reports are the same.
   */
  engine?: Engine;
}

export type Engine = 'auto' | 'eslint' | 'oxlint';
export const ENGINES: readonly Engine[] = ['auto', 'eslint', 'oxlint'];

/**
 * Below this much text to parse, ESLint in this process finishes before an oxlint process has
 * started (about 0.1 s of CPU, more wall time on a busy machine): a pre-commit hook on a few files.
 */
const OXLINT_MIN_BYTES = 256 * 1024;

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
  const results = new Map<string, ESLint.LintResult>();
  const candidates: SourceFile[] = [];
  // Synchronous reads: most files are only read and tested, and from the page cache a blocking read
  // costs a fraction of an async one (open, stat, read, close as separate thread-pool round trips).
  for (const filePath of files) {
    let text: string;
    try {
      text = readFileSync(filePath, 'utf8');
    } catch (error) {
      results.set(filePath, unreadableResult(filePath, error));
      continue;
    }
    if (prefilter && !mayReport(text, filePath)) results.set(filePath, cleanResult(filePath));
    else candidates.push({ filePath, text });
  }

  const oxlint = useOxlint(candidates, options) ? OxlintEngine.find() : null;
  if (oxlint) {
    const fromOxlint = await oxlint.lint(
      candidates.filter((file) => OxlintEngine.accepts(file.text)),
      options.cwd,
    );
    for (const [filePath, result] of fromOxlint) results.set(filePath, result);
  }
  const rest = candidates.filter((file) => !results.has(file.filePath));
  if (rest.length > 0) {
    const linter = new TextLinter({ cwd: options.cwd, types: options.types });
    const linted = [];
    for (const { filePath, text } of rest) linted.push(await linter.lint(text, filePath));
    for (const result of await linter.finish(linted)) results.set(result.filePath, result);
  }
  return { results: files.map((filePath) => results.get(filePath)!), parsed: candidates.length };
}

function useOxlint(candidates: readonly SourceFile[], options: LintFilesOptions): boolean {
  const engine = options.engine ?? 'auto';
  if (options.types || engine === 'eslint') return false;
  if (engine === 'oxlint') return true;
  let bytes = 0;
  for (const file of candidates) if ((bytes += file.text.length) >= OXLINT_MIN_BYTES) return true;
  return false;
}
