import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { propertyName, unwrap, type Node } from '../javascript/ast.js';
import type { Family } from '../core/effect.js';
import type { StreamSite } from '../javascript/site.js';
import { giveUpFor } from './give-up.js';
import { closeStatement, isOptionalChain } from './plan-close.js';
import type { PlanContext } from './plan-context.js';
import { iteratorGiveUp } from './plan-controller.js';
import { terminalFlag } from './plan-flag.js';
import { iteratorTap } from './plan-iterator-tap.js';
import { enclosingAsyncLoopOf } from './plan-loop.js';
import { loopHandOff } from './plan-loop-plans.js';
import { findReaderInHand, nothingReadsAfter, readsOnInLoop, type ReaderInHand } from './plan-reader.js';
import { canWaitForDrain, readerPlan, readerToDrain } from './plan-reader-drain.js';
import { FINALLY_AFTER_CATCH_REASON, NOTHING_ENDS_DRAIN_REASON, PENDING_READ_REASON, READS_ON_REASON } from './plan-reasons.js';
import { enclosingFinally } from './plan-scope.js';
import { manual, type SitePlan } from './plan-types.js';

/** A reported close method call (`reader.cancel()`, `controller.abort()`), as the drain at the close needs it. */
interface ExplicitClose {
  site: StreamSite;
  call: TSESTree.CallExpression;
  callee: TSESTree.MemberExpression;
  /** The close's method (`cancel`, `abort`, `terminate`, …). */
  method: string;
  /** The expression statement that is just the close. */
  statement: Node;
  fn: Node | null;
}

/** An explicit close: a drain of the reader of the response in hand, else a hand-off in the `for await` over it. */
export function planExplicitClose(context: PlanContext, site: StreamSite, call: TSESTree.CallExpression, fn: Node | null): SitePlan {
  const callee = unwrap(call.callee);
  if (callee?.type !== AST_NODE_TYPES.MemberExpression) return manual(site, 'the close is not a method call');
  const method = propertyName(callee) ?? '';
  const statement = closeStatement(call);
  if (!statement) return manual(site, 'the close is used as a value, not as a statement of its own');
  const { streams, sourceCode } = context;
  const family = method === 'terminate' ? streams.transformControllerFamily(callee.object) : streams.familyOf(callee.object);
  const loop = family ? enclosingAsyncLoopOf(call, callee.object, family, streams, sourceCode) : null;
  const reader = family && fn ? findReaderInHand(call, callee.object, family, fn, streams, sourceCode) : null;
  const close: ExplicitClose = { site, call, callee, method, statement, fn };
  const drained = readerToDrain(reader, loop);
  if (drained) return drainAtClose(context, close, drained, family);
  if (!loop) return manual(site, 'no reader of this response is in hand to drain, and the close is not inside a `for await` over it');
  return loopHandOff(loop, call, { site, statement, kind: 'close' }, call);
}

/**
 * The close becomes a drain of the reader in hand (or, for an iterator whose parser was given the fetch body, a tap
 * of that body). In a `finally` after a `catch`, only where a flag set at the terminal event can tell the drain to run.
 */
function drainAtClose(context: PlanContext, close: ExplicitClose, reader: ReaderInHand, family: Family | null): SitePlan {
  const { site, call, callee, method, statement, fn } = close;
  const { streams, sourceCode } = context;
  const finallyOf = enclosingFinally(statement);
  const flag = finallyOf?.handler ? terminalFlag(finallyOf, call, context.classifier(), sourceCode) : null;
  if (finallyOf?.handler && flag === null) return manual(site, FINALLY_AFTER_CATCH_REASON);
  const detached = finallyOf !== null || nothingReadsAfter(statement, reader.node, sourceCode);
  if (!detached && readsOnInLoop(statement, reader.node, sourceCode)) return manual(site, READS_ON_REASON);
  if (!detached && !canWaitForDrain(fn)) return manual(site, 'the reader is read again after the close, and the function is not async, so it cannot wait for the drain');
  const optional = isOptionalChain(callee);
  const tap = reader.method === 'next' && detached && !finallyOf && !optional ? iteratorTap(reader.node, statement, sourceCode) : null;
  if (tap) return { kind: 'iteratorTap', site, statement, ...tap };
  const giveUp = reader.method === 'read' ? giveUpFor(call, reader.node, 'reader', 'cancel', sourceCode) : iteratorGiveUp(call, reader.node, family, fn, streams, sourceCode);
  if (!giveUp) return manual(site, method === 'abort' ? PENDING_READ_REASON : NOTHING_ENDS_DRAIN_REASON);
  return readerPlan(context, reader, { site, statement, giveUp, optional, detached, finallyOf: finallyOf?.handler ? null : finallyOf, flag });
}
