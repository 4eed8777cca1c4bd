import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { Node } from '../rules/analysis/ast.js';
import type { StreamResolver } from '../rules/analysis/streams.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, EditBuilder } from './edits.js';
import type { FoundSite } from './find-sites.js';
import { mergeEdits, type Edit } from './layout.js';
import { planSites } from './plan.js';

export interface SuggestedRewrite {
  /** All the plan's edits as one (one fix per suggestion). */
  edit: Edit;
  budget: number;
}

/**
 * The rewrite the rule offers as a suggestion for each fixable site: the edits of the plan that site belongs to (all
 * sites of one `for await` share one), made by the same planner and edit builder as `drainguard fix`.
 */
export function suggestedEdits(
  sites: readonly FoundSite[],
  sourceCode: SourceCode,
  typescript: boolean,
  streams?: StreamResolver,
  budget = DEFAULT_DRAIN_TIMEOUT_MS,
): Map<Node, SuggestedRewrite> {
  const result = new Map<Node, SuggestedRewrite>();
  for (const plan of planSites(sites, sourceCode, streams)) {
    if (plan.kind === 'manual') continue;
    const builder = new EditBuilder(sourceCode.text, sourceCode, typescript, budget);
    if (plan.kind === 'reader') builder.reader(plan);
    else if (plan.kind === 'dataHandler') builder.dataHandler(plan);
    else builder.loop(plan);
    const rewrite = { edit: mergeEdits(sourceCode.text, builder.edits()), budget };
    for (const site of plan.kind === 'loop' ? plan.changes.map((change) => change.site) : [plan.site]) result.set(site.node, rewrite);
  }
  return result;
}
