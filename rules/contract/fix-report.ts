/** What a rewrite did at one reported site: the shape `drainguard fix` reports for both languages. */
export interface SiteResult {
  line: number;
  column: number;
  status: 'fixed' | 'manual';
  reason?: string;
}

/** A rewrite of one file, in either language. */
export interface FileRewrite {
  /** The new text, or null when nothing changed. */
  output: string | null;
  sites: SiteResult[];
  parseError?: string;
}
