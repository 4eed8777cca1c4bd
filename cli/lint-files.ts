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
   * `auto` (default): run the rule through oxlint's JS plugin host when oxlint is installed, and
   * through ESLint for the files oxlint leaves (see OxlintEngine); `eslint`: ESLint only
   * (`DRAINGUARD_ENGINE=eslint`). The reports are the same.
   */
  engine?: 'auto' | 'eslint';
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

  const oxlint = options.types || options.engine === 'eslint' ? null : OxlintEngine.find();
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
