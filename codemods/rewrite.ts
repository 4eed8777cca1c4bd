import { EditBuilder, DEFAULT_DRAIN_TIMEOUT_MS } from './edits.js';
import { findSites, type FindSitesOptions } from './find-sites.js';
import { isTypeScriptPath } from './language.js';
import { applyEdits } from './layout.js';
import { planSites, type Plan } from './plan.js';

export { DEFAULT_DRAIN_TIMEOUT_MS };

export interface RewriteOptions extends FindSitesOptions {
  /** Budget for the drain: after this many ms the drain is ended (the original close or the request's abort). 0 = no budget (reported as unbounded). */
  drainTimeoutMs?: number;
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
  const budget = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  if (!Number.isInteger(budget) || budget < 0) throw new RangeError(`drainTimeoutMs must be a whole number >= 0, got ${budget}`);
  const hasBom = source.startsWith(BOM);
  const text = hasBom ? source.slice(1) : source;
  const { sites, sourceCode, parseError } = findSites(text, filePath, options);
  if (parseError) return { output: null, sites: [], parseError };
  if (sites.length === 0) return { output: null, sites: [] };

  const only = options.only;
  const at = (site: { line: number; column: number }): boolean => !only || (site.line === only.line && site.column === only.column);
  const plans = planSites(sites, sourceCode).filter((plan) =>
    plan.kind === 'loop' ? plan.changes.some((change) => at(change.site)) : at(plan.site),
  );
  const edits = new EditBuilder(text, sourceCode, isTypeScriptPath(filePath), budget);
  const results: SiteResult[] = [];
  const fixed = (site: { line: number; column: number }): SiteResult => ({
    line: site.line,
    column: site.column,
    status: 'fixed',
    ...(budget === 0 ? { reason: UNBOUNDED_REASON } : {}),
  });
  for (const plan of plans) {
    if (plan.kind === 'manual') {
      results.push({ line: plan.site.line, column: plan.site.column, status: 'manual', reason: plan.reason });
    } else if (plan.kind === 'reader') {
      edits.reader(plan);
      results.push(fixed(plan.site));
    } else {
      edits.loop(plan);
      for (const change of plan.changes) results.push(fixed(change.site));
    }
  }
  results.sort((a, b) => a.line - b.line || a.column - b.column);
  const all = edits.edits();
  if (all.length === 0) return { output: null, sites: results };
  return { output: (hasBom ? BOM : '') + applyEdits(text, all), sites: results };
}

export type { Plan };
