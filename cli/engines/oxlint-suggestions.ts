/**
 * What the plugin oxlint runs (cli/engines/oxlint-plugin.ts) and the CLI that reads its records (cli/engines/oxlint-engine.ts)
 * share, apart from the plugin: the CLI then does not load the rule with itself, only when it lints in process.
 */
export const SUGGESTIONS_ENV = 'DRAINGUARD_OXLINT_SUGGESTIONS';

/**
 * One report as oxlint's JSON does not give it: the file, the report's start offset, its message id, and its
 * suggestions as ESLint's LintMessage has them.
 */
export interface SuggestionRecord {
  filename: string;
  start: number;
  messageId?: string;
  suggestions: SuggestionResult[];
}

export interface Fix {
  range: [number, number];
  text: string;
}

export interface SuggestionResult {
  messageId?: string;
  data?: Record<string, string>;
  fix: Fix;
  desc: string;
}
