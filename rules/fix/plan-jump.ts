import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { Node } from '../javascript/ast.js';
import { innermostLeftAsyncLoop, jumpTarget } from '../javascript/jumps.js';
import type { StreamSite } from '../javascript/site.js';
import { loopHandOff } from './plan-loop-plans.js';
import { COMPILED_OUTPUT_REASON } from './plan-reasons.js';
import { manual, type SitePlan } from './plan-types.js';

export type Jump = TSESTree.BreakStatement | TSESTree.ReturnStatement | TSESTree.ContinueStatement;

export function isJump(node: Node): node is Jump {
  return node.type === AST_NODE_TYPES.BreakStatement || node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ContinueStatement;
}

/** A jump out of a `for await` at its terminal event: the hand-off goes before the jump. */
export function planJump(site: StreamSite, jump: Jump): SitePlan {
  const target = jump.type === AST_NODE_TYPES.ReturnStatement ? null : jumpTarget(jump);
  const loop = innermostLeftAsyncLoop(jump, target);
  if (!loop || loop.type !== AST_NODE_TYPES.ForOfStatement) return manual(site, COMPILED_OUTPUT_REASON);
  return loopHandOff(loop, jump, { site, statement: jump, kind: 'jump' });
}
