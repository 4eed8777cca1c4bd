import type { TSESTree } from '@typescript-eslint/utils';
import type { Node } from '../javascript/ast.js';
import type { PlanContext } from './plan-context.js';
import { loopDrain, loopProblem } from './plan-loop.js';
import { NOTHING_ENDS_DRAIN_REASON } from './plan-reasons.js';
import { manual, type LoopChange, type LoopSitePlan, type Plan, type SitePlan } from './plan-types.js';

// Sites inside a `for await`: each site's hand-off, the hand-offs of one loop gathered into one plan, and that plan's
// drain, or manual plans where nothing can drain the loop.

/**
 * A site inside `loop` whose change goes into the loop's plan, unless the loop cannot iterate a drainable wrapper.
 * `at` is the site's close or jump; `close`, the site's own explicit close, which may end the loop's drain.
 */
export function loopHandOff(loop: TSESTree.ForOfStatement, at: Node, change: LoopChange, close: TSESTree.CallExpression | null = null): SitePlan {
  const problem = loopProblem(at, loop);
  return problem ? manual(change.site, problem) : { kind: 'loopSite', loop, change, close };
}

/** The sites of one `for await`, gathered, before what drains it is known. */
interface LoopSites {
  kind: 'loopSites';
  loop: TSESTree.ForOfStatement;
  changes: LoopChange[];
  /** The first explicit close among them. */
  close: TSESTree.CallExpression | null;
}

type Gathered = Exclude<SitePlan, LoopSitePlan> | LoopSites;

/** One entry per `for await`, where its first site was, with the changes of all its sites; other plans stay in order. */
export function gatherLoopSites(sitePlans: readonly SitePlan[]): Gathered[] {
  const gathered: Gathered[] = [];
  const byLoop = new Map<Node, LoopSites>();
  for (const plan of sitePlans) {
    if (plan.kind !== 'loopSite') {
      gathered.push(plan);
      continue;
    }
    let loopSites = byLoop.get(plan.loop);
    if (!loopSites) {
      loopSites = { kind: 'loopSites', loop: plan.loop, changes: [], close: null };
      byLoop.set(plan.loop, loopSites);
      gathered.push(loopSites);
    }
    loopSites.changes.push(plan.change);
    loopSites.close ??= plan.close;
  }
  return gathered;
}

/** Each loop's plan with what drains the rest of its stream; where nothing can, its sites are left manual in its place. */
export function drainLoopsOrLeaveManual(gathered: readonly Gathered[], context: PlanContext): Plan[] {
  return gathered.flatMap((entry): Plan[] => {
    if (entry.kind !== 'loopSites') return [entry];
    const drain = loopDrain(entry.loop, entry.close, context.streams, context.sourceCode);
    if (!drain) return entry.changes.map((change) => manual(change.site, NOTHING_ENDS_DRAIN_REASON));
    return [{ kind: 'loop', loop: entry.loop, changes: entry.changes, drain }];
  });
}
