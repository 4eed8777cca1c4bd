import { buildOutput, type BuildOptions } from '../rules/fix/build-output.js';
import { drainBounds, type DrainOptions } from '../rules/contract/drain-options.js';
import { findSites, type FindSitesOptions, type FoundSite } from './find-sites.js';
import { generatedNote } from './generated.js';
import { applyEdits } from '../rules/contract/apply-edits.js';
import type { FileRewrite, SiteResult } from '../rules/contract/fix-report.js';
import type { PieceName } from '../rules/fix/helpers.js';
import { planSites, type Plan } from '../rules/fix/plan.js';
import { verifyRewrite } from './verify.js';

export { drainBounds };
// The jscodeshift transform (CommonJS) reaches the engine through this module only.
export { asWritten, optionList } from '../rules/contract/option-values.js';
export { findHelperModule, readHelperModule } from '../rules/fix/helper-module.js';
export { styleSettingsFor } from '../rules/fix/style.js';

export interface RewriteOptions extends FindSitesOptions, DrainOptions, Omit<BuildOptions, 'bounds'> {
  /** Rewrite only the site at this position (and the sites that share its rewrite: one `for await`), as the rule's suggestion for it does. */
  only?: { line: number; column: number };
}

export type { SiteResult };

export interface RewriteResult extends FileRewrite {
  /** The pieces the output imports from the helper module (none where it carries its own copy). */
  helperPieces?: PieceName[];
}

const BOM = '\uFEFF';
export const UNBOUNDED_REASON = 'unbounded: --drain-timeout-ms 0 drains without a budget, so a server that keeps the body open keeps the drain (in the background) open too';
export const MESSAGES_NOTE =
  "the drain reads on through the parser's messages, not the body's bytes, so its byte limit never sees what the parser drops (comments, keep-alives): it stops at a tenth of the time budget";

/** Where a site is reported: a jump rewritten with the close right before it (`body.destroy(); return;`) is part of that close's site. */
function reportedAt(site: FoundSite): { line: number; column: number } {
  return { line: (site.partOf ?? site).line, column: (site.partOf ?? site).column };
}

function sitesOf(plan: Plan): FoundSite[] {
  return plan.kind === 'loop' ? plan.changes.map((change) => change.site) : [plan.site];
}

/**
 * Rewrites every site the rule reports in `source` into a bounded drain. Never a half rewrite: a site is fixed whole
 * or left as it was, and the rewritten text is parsed and linted again before it is returned (a plan whose rewrite
 * does not parse, or leaves its site reported, is rolled back and its site reported manual with the reason).
 */
export function rewrite(source: string, filePath: string, options: RewriteOptions = {}): RewriteResult {
  const bounds = drainBounds(options);
  const hasBom = source.startsWith(BOM);
  const text = hasBom ? source.slice(1) : source;
  const { sites, sourceCode, parseError } = findSites(text, filePath, options);
  if (parseError) return { output: null, sites: [], parseError, helperPieces: [] };
  if (sites.length === 0) return { output: null, sites: [], helperPieces: [] };

  const only = options.only;
  const at = (site: FoundSite): boolean => !only || (reportedAt(site).line === only.line && reportedAt(site).column === only.column);
  const plans = planSites(sites, sourceCode, undefined, { terminalPatterns: options.ruleOptions?.terminalPatterns }).filter((plan) => sitesOf(plan).some(at));
  const reported = new Set(sites.filter((site) => !site.partOf).map((site) => `${site.line}:${site.column}`)).size;
  const rolledBack = new Map<Plan, string>();
  const build = (chosen: readonly Plan[]): { output: string | null; imported: PieceName[] } => {
    const built = buildOutput(text, filePath, sourceCode, chosen, { ...options, bounds });
    return { output: built.edits.length === 0 ? null : applyEdits(text, built.edits), imported: built.imported };
  };
  const check = (chosen: readonly Plan[], output: string): string | null => {
    const rewritten = new Set(chosen.flatMap(sitesOf).map((site) => `${reportedAt(site).line}:${reportedAt(site).column}`)).size;
    return verifyRewrite(output, filePath, options, reported - rewritten);
  };

  let chosen = plans.filter((plan) => plan.kind !== 'manual');
  let result = build(chosen);
  let problem = result.output === null ? null : check(chosen, result.output);
  if (problem !== null) {
    // Which rewrite fails: each on its own; the others are then applied together, and checked together again.
    for (const plan of chosen) {
      const alone = build([plan]);
      const reason = alone.output === null ? null : check([plan], alone.output);
      if (reason !== null || chosen.length === 1) rolledBack.set(plan, reason ?? problem);
    }
    chosen = chosen.filter((plan) => !rolledBack.has(plan));
    result = build(chosen);
    problem = result.output === null ? null : check(chosen, result.output);
    if (problem !== null) {
      for (const plan of chosen) rolledBack.set(plan, problem);
      chosen = [];
      result = build(chosen);
    }
  }

  const effective = result.imported.length > 0 ? (options.helperModule?.bounds ?? bounds) : bounds;
  const helperPath = result.imported.length > 0 ? options.helperModule?.path : undefined;
  const notes = [effective.drainTimeoutMs === 0 ? UNBOUNDED_REASON : null, generatedNote(text, filePath, helperPath)].filter((note) => note !== null);
  const results: SiteResult[] = [];
  for (const plan of plans) {
    const reason = plan.kind === 'manual' ? plan.reason : rolledBack.get(plan);
    const timeOnly = effective.drainMaxBytes > 0 && countsMessages(plan);
    const siteNotes = timeOnly ? [MESSAGES_NOTE, ...notes] : notes;
    for (const site of sitesOf(plan)) {
      if (reason !== undefined) results.push({ ...reportedAt(site), status: 'manual', reason });
      else results.push({ ...reportedAt(site), status: 'fixed', ...(timeOnly ? { bound: 'time only' as const } : {}), ...(siteNotes.length > 0 ? { reason: siteNotes.join('; ') } : {}) });
    }
  }
  const siteResults = oneResultPerSite(results);
  if (result.output === null) return { output: null, sites: siteResults, helperPieces: [] };
  return { output: (hasBom ? BOM : '') + result.output, sites: siteResults, helperPieces: result.imported };
}

/** The drain reads parsed messages, not the body, so its byte limit does not see what the parser drops. */
function countsMessages(plan: Plan): boolean {
  if (plan.kind === 'reader') return !plan.bytes;
  return plan.kind === 'loop' && plan.drain.kind === 'iterator' && !plan.drain.bytes;
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
