import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { Node } from '../javascript/ast.js';
import type { StreamSite } from '../javascript/site.js';
import { StreamResolver } from '../javascript/streams.js';
import { closeStatement } from './plan-close.js';
import { planContext, type PlanContext, type PlanOptions } from './plan-context.js';
import { dataHandlerCall, planDataHandler } from './plan-data-handler.js';
import { planExplicitClose } from './plan-explicit-close.js';
import { planHelperCall } from './plan-helper-call.js';
import { isJump, planJump } from './plan-jump.js';
import { drainLoopsOrLeaveManual, gatherLoopSites } from './plan-loop-plans.js';
import { DATA_HANDLER_REASON } from './plan-reasons.js';
import { enclosingFunction } from './plan-scope.js';
import { manual, type Plan, type SitePlan } from './plan-types.js';

export type { PlanOptions } from './plan-context.js';
export { COMPILED_OUTPUT_REASON, DATA_HANDLER_REASON, FINALLY_AFTER_CATCH_REASON, NOTHING_ENDS_DRAIN_REASON, READS_ON_REASON } from './plan-reasons.js';
export type { IteratorTapPlan, LoopChange, LoopPlan, ManualPlan, Plan, ReaderPlan } from './plan-types.js';

/**
 * Decides per site how to rewrite it. `streams` is the rule's own resolver when the rule found the sites in this run
 * (its class members and type information included), so the plan reads the streams, loops and readers as the rule did.
 */
export function planSites(
  sites: readonly StreamSite[],
  sourceCode: SourceCode,
  streams: StreamResolver = resolverFor(sourceCode, sites),
  options: PlanOptions = {},
): Plan[] {
  const context = planContext(sourceCode, streams, options);
  const sitePlans = sites.map((site) => planSite(context, site));
  return drainLoopsOrLeaveManual(gatherLoopSites(sitePlans), context);
}

/** One site's plan, by the kind of site. */
function planSite(context: PlanContext, site: StreamSite): SitePlan {
  const node = site.node;
  const fn = enclosingFunction(node);
  if (site.kind === 'helperClose' && node.type === AST_NODE_TYPES.CallExpression) return planHelperCall(context, site, node, fn);
  if (fn && dataHandlerCall(fn)) return planDataHandlerSite(context, site, fn);
  if (node.type === AST_NODE_TYPES.CallExpression) return planExplicitClose(context, site, node, fn);
  if (isJump(node)) return planJump(site, node);
  return manual(site, `unsupported site ${node.type}`);
}

/** A site in a Node stream's `'data'` handler `handler`. */
function planDataHandlerSite(context: PlanContext, site: StreamSite, handler: Node): SitePlan {
  if (site.node.type !== AST_NODE_TYPES.CallExpression) return manual(site, DATA_HANDLER_REASON);
  return planDataHandler(site, handler, closeStatement(site.node), context.streams, context.sourceCode);
}

function resolverFor(sourceCode: SourceCode, sites: readonly StreamSite[]): StreamResolver {
  const fromRule = sites.find((site) => site.streams)?.streams;
  if (fromRule) return fromRule;
  return new StreamResolver({
    getScope: (node) => sourceCode.getScope(node),
    visitorKeys: sourceCode.visitorKeys,
  });
}
