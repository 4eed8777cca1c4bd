import type { SiteResult } from '../../codemods/rewrite.js';
import type { PieceName } from '../../rules/fix/helpers.js';
import type { FormatProblem } from './formatter.js';
import type { HelperChoice } from './helper-choice.js';

/** One file after the rewrite, before anything is written. */
export interface Rewritten {
  file: string;
  source: string;
  /** The text to write, or null when the file stays as it is. */
  output: string | null;
  sites: SiteResult[];
  /** What the output imports from the helper module. */
  helperPieces: PieceName[];
  error?: string;
  /** Why the repository's formatter did not format the output, where it could not run. */
  formatProblem?: FormatProblem;
}

/** A helper module's new text, before it is written. */
export interface ModuleText {
  path: string;
  text: string;
  existing: HelperChoice['existing'];
  formatProblem?: FormatProblem;
}

/** What a run holds in memory until it writes: the files it read and their rewrites, and the helper modules they import. */
export interface InMemory {
  /** How many files it read. */
  scanned: number;
  rewritten: Rewritten[];
  modules: ModuleText[];
}

/** Takes a rewrite back: the file stays as it is, and its fixed sites are manual with the reason. */
export function rollBack(entry: Rewritten, reason: string): void {
  entry.output = null;
  entry.helperPieces = [];
  entry.formatProblem = undefined;
  entry.sites = entry.sites.map((site) => (site.status === 'fixed' ? { line: site.line, column: site.column, status: 'manual', reason } : site));
}
