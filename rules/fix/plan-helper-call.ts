import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { propertyName, unwrap, type Node } from '../javascript/ast.js';
import type { Family } from '../core/effect.js';
import { calledFunction } from '../javascript/function-results.js';
import type { HelperCall, StreamSite } from '../javascript/site.js';
import type { StreamResolver } from '../javascript/streams.js';
import { closeStatement } from './plan-close.js';
import type { PlanContext } from './plan-context.js';
import { callGiveUp, closesOnly, helperName } from './plan-helper.js';
import { enclosingAsyncLoopOf } from './plan-loop.js';
import { loopHandOff } from './plan-loop-plans.js';
import { findReaderInHand, nothingReadsAfter, readsOnInLoop, type ReaderInHand } from './plan-reader.js';
import { canWaitForDrain, readerPlan, readerToDrain } from './plan-reader-drain.js';
import { NOTHING_ENDS_DRAIN_REASON, READS_ON_REASON } from './plan-reasons.js';
import { enclosingFinally } from './plan-scope.js';
import { manual, type SitePlan } from './plan-types.js';

/** A reported call of a helper that closes the stream, as the drain at the call needs it. */
interface HelperCallSite {
  site: StreamSite;
  call: TSESTree.CallExpression;
  /** The expression statement that is just the call. */
  statement: Node;
  /** The helper as called, for a reason's text. */
  name: string;
  fn: Node | null;
}

/**
 * A close in a helper the site calls (`finish(reader)`): drained where the call is, when a reader of the response is
 * in hand there or the call is inside a `for await` over it, and the helper does nothing but close (its call becomes
 * the drain's give-up; at EOF it has nothing left to close). Else manual, with the reason.
 */
export function planHelperCall(context: PlanContext, site: StreamSite, call: TSESTree.CallExpression, fn: Node | null): SitePlan {
  const helper = site.helper;
  const name = helperName(call);
  const statement = closeStatement(call);
  if (!helper) return manual(site, `the close is in \`${name}\`, and which stream it closes is not known here`);
  if (!statement) return manual(site, `the call of \`${name}\`, which closes the stream, is used as a value, not as a statement of its own`);
  const { streams, sourceCode } = context;
  const target = helper.argument;
  const family = closedFamily(helper, streams);
  const loop = family ? enclosingAsyncLoopOf(call, target ?? call, family, streams, sourceCode) : null;
  const reader = target && family && fn ? findReaderInHand(call, target, family, fn, streams, sourceCode) : null;
  if (!reader && !loop) {
    return manual(
      site,
      `no reader of this response is in hand where \`${name}\` is called (it closes the stream the code reads elsewhere): let that code read on to EOF, then call \`${name}\`, with a timer for the budget`,
    );
  }
  if (!closesOnly(helper.fn, (inner) => calledFunction(inner, streams))) {
    return manual(site, `\`${name}\` does more than close the stream: a drain before it would hold the rest back until the body ends; drain first where the body is read, then call \`${name}\``);
  }
  const drained = readerToDrain(reader, loop);
  if (drained) return drainAtHelperCall(context, { site, call, statement, name, fn }, drained);
  return loop ? loopHandOff(loop, call, { site, statement, kind: 'close' }) : manual(site, NOTHING_ENDS_DRAIN_REASON);
}

/** The family of the stream the helper closes. */
function closedFamily(helper: HelperCall, streams: StreamResolver): Family | null {
  const closeCallee = unwrap(helper.close.callee);
  const method = closeCallee?.type === AST_NODE_TYPES.MemberExpression ? (propertyName(closeCallee) ?? '') : '';
  if (helper.argument) return streams.closeFamilyFor(helper.argument, method);
  // A helper that closes a stream of its own (`this.controller.abort()`) closes the response that stream belongs to.
  return closeCallee?.type === AST_NODE_TYPES.MemberExpression ? streams.closeFamilyFor(closeCallee.object, method) : null;
}

/** The call becomes a drain of the reader in hand, which gives up by making the call. */
function drainAtHelperCall(context: PlanContext, helperCall: HelperCallSite, reader: ReaderInHand): SitePlan {
  const { site, call, statement, name, fn } = helperCall;
  const giveUp = callGiveUp(call, context.sourceCode);
  if (!giveUp) return manual(site, `what \`${name}\` is given may change before the drain gives up: keep it in a const`);
  if (enclosingFinally(statement)) return manual(site, `the call of \`${name}\` is in a \`finally\`: call it after the reading, or close the reader there`);
  const detached = nothingReadsAfter(statement, reader.node, context.sourceCode);
  if (!detached && (readsOnInLoop(statement, reader.node, context.sourceCode) || !canWaitForDrain(fn))) return manual(site, READS_ON_REASON);
  return readerPlan(context, reader, { site, statement, giveUp, optional: false, detached, finallyOf: null, flag: null });
}
