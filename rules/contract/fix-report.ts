/** What a rewrite did at one reported site: the shape `drainguard fix` reports for both languages. */
export interface SiteResult {
  line: number;
  column: number;
  status: 'fixed' | 'manual';
  /** `time only`: a fixed site whose drain cannot count the body's bytes (it reads parsed messages). */
  bound?: 'time only';
  reason?: string;
}

/** A rewrite of one file, in either language. */
export interface FileRewrite {
  /** The new text, or null when nothing changed. */
  output: string | null;
  sites: SiteResult[];
  parseError?: string;
}

/** How a site's status is shown to a person: `fixed`, `fixed (bounded by time only)`, `manual`. */
export function statusText(site: SiteResult): string {
  return site.bound ? `${site.status} (bounded by ${site.bound})` : site.status;
}
