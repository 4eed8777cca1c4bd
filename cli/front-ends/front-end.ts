import type { ESLint } from 'eslint';
import type { RewriteResult } from '../../codemods/rewrite.js';
import type { DrainBounds } from '../../rules/contract/drain-options.js';
import type { StyleSettings } from '../../rules/fix/style.js';
import type { CliRuleOptions } from '../shared/rule-args.js';
import type { Prefilter } from './javascript-prefilter.js';

/**
 * A language as `drainguard lint` and `fix` ask for it (cli/front-ends/registry.ts lists them): which files are its,
 * the pre-filter that spares most of them a parse, how `lint` lints one, and how `fix` rewrites one. The CLI learns a
 * new language from one of these, listed in the registry.
 */
export interface FrontEnd {
  /** The language, as the docs name it. */
  name: string;
  /** The endings of its files' names, lower case, with the dot (`.ts`). */
  extensions: readonly string[];
  /** The pre-filter under a run's rule options: whether a file's text can hold a site (most cannot, and are not parsed). */
  prefilter: (ruleOptions: CliRuleOptions | undefined) => Prefilter;
  lint: Linting;
  fix: Fixing;
}

/** How `lint` runs the rule on a file the pre-filter kept. */
export type Linting =
  /** Through the engines that run drainguard's ESLint rule (cli/engines/: oxlint, ESLint in process), in batches. */
  | { kind: 'eslint-rule' }
  /** One file at a time, in process, by the language's own analysis; a crash of the analysis is a fatal result. */
  | { kind: 'own-analysis'; lintFile: (text: string, filePath: string, ruleOptions: CliRuleOptions | undefined) => Promise<ESLint.LintResult> };

/** How `fix` rewrites a file, and where the drain helper its rewrite calls goes. */
export interface Fixing {
  /** The rewrite of one file's text in memory (codemods/), loaded when `fix` first asks for it. */
  rewrite: (source: string, filePath: string, options: FixOptions) => Promise<RewriteResult>;
  helper: HelperPlacement;
}

export interface FixOptions {
  bounds: DrainBounds;
  ruleOptions: CliRuleOptions;
  /** `--types`: sites found with type information, where the language has it. */
  types: boolean;
  /** The helper module the rewrite imports (placement `shared-module`), once `fix` has chosen it. */
  helperModule: string | undefined;
  /** The repository's formatter settings for the file: asked for only by a rewrite laid out by them. */
  styleSettings: () => Promise<StyleSettings>;
}

/** Where the drain helper a rewrite calls goes. */
export type HelperPlacement =
  /** Into a helper module the rewritten files of a package import: `fix` places it, type-checks it and writes its test. */
  | { kind: 'shared-module' }
  /** Into each rewritten file: `fix` writes the tests `planTests` plans for those files' helpers. */
  | { kind: 'in-file'; planTests: (files: ReadonlyArray<{ file: string; text: string }>) => Promise<InFileHelperTest[]> };

/** The test of the helpers a rewritten file carries: what to write where, or why nothing is written. */
export interface InFileHelperTest {
  path: string;
  /** The rewritten file whose helpers it tests. */
  modulePath: string;
  framework: string;
  /** The text to write; null where it is not written (`skipped` says why). */
  text: string | null;
  /** The test drainguard wrote there earlier (null: none). */
  existing: string | null;
  skipped?: string;
  /** What the report adds (the test runner's configuration misses the file). */
  note?: string;
}
