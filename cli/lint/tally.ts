import type { ESLint } from 'eslint';

/** What a lint run has found so far: a result per file, and how many files it parsed. */
export interface LintTally {
  results: Map<string, ESLint.LintResult>;
  parsed: number;
}
