import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { Node } from '../analysis/ast.js';
import type { StreamSite } from '../analysis/site.js';
import type { StreamResolver } from '../analysis/streams.js';
import { applyEdits, mergeEdits, type Edit } from '../contract/apply-edits.js';
import { drainBounds } from '../contract/drain-options.js';
import { buildOutput } from './build-output.js';
import { findHelperModule } from './helper-module.js';
import { planSites, type Plan } from './plan.js';

export interface SuggestedRewrite {
  /** All the plan's edits as one (one fix per suggestion). */
  edit: Edit;
}

export interface SuggestionContext {
  filename: string;
  terminalPatterns?: string[];
  /**
   * Checks a rewritten text as `drainguard fix` checks it (it parses, and the rule reports at most `remaining` sites in
   * it): given by the rule, which alone can run itself again.
   */
  verify: (output: string, remaining: number) => boolean;
}

/**
 * The rewrite the rule offers as a suggestion for each fixable site: the edits of the plan that site belongs to (all
 * sites of one `for await` share one), made by the same planner and edit builder as `drainguard fix`, and verified as
 * `fix` verifies (the rewritten file parses with the same parser, and the rule no longer reports the site) — a rewrite
 * that fails is not offered. The sites import the repository's helper module where one is found near the file and has
 * what they need (the suggestion changes one file only); else the file gets its own copy, with the default bounds.
 */
export function suggestedEdits(sites: readonly StreamSite[], sourceCode: SourceCode, context: SuggestionContext, streams?: StreamResolver): Map<Node, SuggestedRewrite> {
  const result = new Map<Node, SuggestedRewrite>();
  const text = sourceCode.text;
  const options = { bounds: drainBounds(), helperModule: findHelperModule(context.filename) ?? undefined };
  const plans = planSites(sites, sourceCode, streams, { terminalPatterns: context.terminalPatterns }).filter((plan) => plan.kind !== 'manual');
  const reported = sites.filter((site) => !site.partOf).length;
  const sitesOf = (plan: Plan): StreamSite[] => (plan.kind === 'loop' ? plan.changes.map((change) => change.site) : [plan.site]);
  const verified = (chosen: readonly Plan[]): boolean => {
    const { edits } = buildOutput(text, context.filename, sourceCode, chosen, options);
    const rewritten = chosen.flatMap(sitesOf).filter((site) => !site.partOf).length;
    return edits.length > 0 && context.verify(applyEdits(text, edits), reported - rewritten);
  };
  // One check of all rewrites together (a lint of the file); each on its own only where that fails, and only in a
  // file with few of them (a generated file with thousands of sites would take a lint per site).
  const offered = verified(plans) ? plans : plans.length <= MAX_SEPARATE_CHECKS ? plans.filter((plan) => verified([plan])) : [];
  for (const plan of offered) {
    const { edits } = buildOutput(text, context.filename, sourceCode, [plan], options);
    const rewrite = { edit: mergeEdits(text, edits) };
    for (const site of sitesOf(plan)) result.set(site.node, rewrite);
  }
  return result;
}

const MAX_SEPARATE_CHECKS = 8;
