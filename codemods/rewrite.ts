import { EditBuilder } from './edits.js';
import { DEFAULT_DRAIN_MAX_BYTES, DEFAULT_DRAIN_TIMEOUT_MS, drainBounds, type DrainOptions } from '../rules/contract/drain-options.js';
import { findSites, type FindSitesOptions, type FoundSite } from './find-sites.js';
import { isTypeScriptPath } from './language.js';
import { applyEdits } from './layout.js';
import { planSites, type Plan } from './plan.js';

export { DEFAULT_DRAIN_MAX_BYTES, DEFAULT_DRAIN_TIMEOUT_MS };

export interface RewriteOptions extends FindSitesOptions, DrainOptions {
  /** Rewrite only the site at this position (and the sites that share its rewrite: one `for await`), as the rule's suggestion for it does. */
  only?: { line: number; column: number };
}

export interface SiteResult {
  line: number;
  column: number;
  status: 'fixed' | 'manual';
  reason?: string;
}

export interface RewriteResult {
  /** The new text, or null when nothing changed. */
  output: string | null;
  sites: SiteResult[];
  parseError?: string;
}

const BOM = '\uFEFF';
export const UNBOUNDED_REASON = 'unbounded: --drain-timeout-ms 0 drains without a budget, so a server that keeps the body open keeps the drain (in the background) open too';

/** Rewrites every site the rule reports in `source` into a bounded drain. Never a half rewrite: a site is fixed whole or left as it was. */
export function rewrite(source: string, filePath: string, options: RewriteOptions = {}): RewriteResult {
  const budget = drainBounds(options).drainTimeoutMs;
  const hasBom = source.startsWith(BOM);
  const text = hasBom ? source.slice(1) : source;
  const { sites, sourceCode, parseError } = findSites(text, filePath, options);
  if (parseError) return { output: null, sites: [], parseError };
  if (sites.length === 0) return { output: null, sites: [] };

  const only = options.only;
  const at = (site: FoundSite): boolean => !only || ((site.partOf ?? site).line === only.line && (site.partOf ?? site).column === only.column);
  const plans = planSites(sites, sourceCode).filter((plan) =>
    plan.kind === 'loop' ? plan.changes.some((change) => at(change.site)) : at(plan.site),
  );
  const edits = new EditBuilder(text, sourceCode, isTypeScriptPath(filePath), budget);
  const results: SiteResult[] = [];
  // A jump rewritten with the close right before it (`body.destroy(); return;`) is part of that close's site.
  const reportedAt = (site: FoundSite): { line: number; column: number } => ({ line: (site.partOf ?? site).line, column: (site.partOf ?? site).column });
  const fixed = (site: FoundSite): SiteResult => ({
    ...reportedAt(site),
    status: 'fixed',
    ...(budget === 0 ? { reason: UNBOUNDED_REASON } : {}),
  });
  for (const plan of plans) {
    if (plan.kind === 'manual') {
      results.push({ ...reportedAt(plan.site), status: 'manual', reason: plan.reason });
    } else if (plan.kind === 'reader') {
      edits.reader(plan);
      results.push(fixed(plan.site));
    } else if (plan.kind === 'dataHandler') {
      edits.dataHandler(plan);
      results.push(fixed(plan.site));
    } else {
      edits.loop(plan);
      for (const change of plan.changes) results.push(fixed(change.site));
    }
  }
  const siteResults = oneResultPerSite(results);
  const all = edits.edits();
  if (all.length === 0) return { output: null, sites: siteResults };
  return { output: (hasBom ? BOM : '') + applyEdits(text, all), sites: siteResults };
}

/** One result per reported site, sorted; a site with a manual part is manual. */
function oneResultPerSite(results: SiteResult[]): SiteResult[] {
  const bySite = new Map<string, SiteResult>();
  for (const result of results) {
    const key = `${result.line}:${result.column}`;
    const seen = bySite.get(key);
    if (!seen || (seen.status === 'fixed' && result.status === 'manual')) bySite.set(key, result);
  }
  return [...bySite.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}

export type { Plan };
