import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyName, unwrap, type Node } from '../analysis/ast.js';
import { BranchTestClassifier } from '../analysis/branch-tests.js';
import { StreamResolver } from '../analysis/streams.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from '../analysis/words.js';
import { innermostLeftAsyncLoop, jumpTarget } from '../analysis/jumps.js';
import type { StreamSite } from '../analysis/site.js';
import { giveUpFor, type GiveUp } from './give-up.js';
import { dataHandlerCall, planDataHandler, type DataHandlerPlan } from './plan-data-handler.js';
import { terminalFlag } from './plan-flag.js';
import { enclosingFinally, enclosingFunction } from './plan-scope.js';
import { findReaderInHand, nothingReadsAfter, readsOnInLoop } from './plan-reader.js';
import { iteratorGiveUp } from './plan-controller.js';
import { readerYieldsBytes } from './web-body.js';
import { iteratorTap, type IteratorTap } from './plan-iterator-tap.js';
import { enclosingAsyncLoopOf, loopDrain, loopProblem, type LoopDrain } from './plan-loop.js';
import { callGiveUp, closesOnly, helperName } from './plan-helper.js';
import { calledFunction } from '../analysis/function-results.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/**
 * A close of a reader (`read()`) or of an iterator of parsed messages (`next()`) in hand: the close statement becomes
 * a drain of it. `detached`: nothing reads it after the close, so the drain runs in the background and the function
 * goes on at once; otherwise the drain is awaited (still bounded) so that later reads see EOF as before.
 */
export interface ReaderPlan {
  kind: 'reader';
  site: StreamSite;
  statement: Node;
  /** The drained reader or iterator, as written at the close. */
  drained: string;
  method: 'read' | 'next';
  /** What it reads is the body's own chunks (see readerYieldsBytes), so the drain's byte limit counts the body. */
  bytes: boolean;
  giveUp: GiveUp;
  /** The close went through optional chaining (`reader?.cancel()`): drain only when the reader is there. */
  optional: boolean;
  detached: boolean;
  /** A close in a `finally` without `catch`: error paths get a `catch` that closes at once and rethrows. */
  finallyOf: TSESTree.TryStatement | null;
  /** A close in a `finally` after a `catch`: drain only when this flag, set at the terminal event, is set. */
  flag: string | null;
  closeText: string;
}

/**
 * A close of an iterator of parsed messages in hand whose parser was given a fetch Response or its body where the
 * iterator is declared (`const messages = sseMessages(response.body)`): the parser gets a stand-in fed from the body's
 * reader (`tapBody`), and the close becomes a background drain of the real body as bytes.
 */
export interface IteratorTapPlan extends IteratorTap {
  kind: 'iteratorTap';
  site: StreamSite;
  statement: Node;
}

/** A site inside a `for await`: the loop iterates a drainable wrapper; the completion branch hands the rest of it to a background drain. */
export interface LoopChange {
  site: StreamSite;
  statement: Node;
  /** `close`: the close statement is replaced by the hand-off; `jump`: the hand-off goes before the break/return/continue. */
  kind: 'close' | 'jump';
}

export interface LoopPlan {
  kind: 'loop';
  loop: TSESTree.ForOfStatement;
  changes: LoopChange[];
  drain: LoopDrain;
}

export interface ManualPlan {
  kind: 'manual';
  site: StreamSite;
  reason: string;
}

export type Plan = ReaderPlan | IteratorTapPlan | LoopPlan | DataHandlerPlan | ManualPlan;

export const COMPILED_OUTPUT_REASON = 'compiled output (`__asyncValues`): fix the source it was compiled from';
export const NOTHING_ENDS_DRAIN_REASON =
  'nothing in scope can end a drain of this iterator early (its return() waits for a pending read): pass the signal of an AbortController to the request, or iterate the body itself';

export const DATA_HANDLER_REASON =
  "the close is in a Node 'data' handler: resolve on the terminal event, let the handler read on until 'end', and destroy the stream only from a timer if 'end' does not come";

export const READS_ON_REASON =
  'the loop reads this reader again after the close (it relies on the next read() seeing the end): a read error during a drain would reach that read; leave the loop after the close (break) to make it rewritable';

export const FINALLY_AFTER_CATCH_REASON =
  'the close is in a `finally` after a `catch`, and no flag set at the terminal event is in scope there to tell a finished stream from a failed one';

const PENDING_READ_REASON =
  "the close's target may be replaced before the drain's time limit, and this iterator's own return() waits for a pending read: keep the request's AbortController in a const";

export interface PlanOptions {
  /** The rule's `terminalPatterns` (to recognise the flag a `finally` can test). */
  terminalPatterns?: readonly string[];
}

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
  const text = (node: Node): string => sourceCode.getText(node);
  const plans: Plan[] = [];
  const loopPlans = new Map<Node, LoopPlan>();
  let classifier: BranchTestClassifier | undefined;
  const classify = (): BranchTestClassifier =>
    (classifier ??= new BranchTestClassifier(streams, compilePatterns(options.terminalPatterns ?? DEFAULT_TERMINAL_PATTERNS), text));
  const manual = (site: StreamSite, reason: string): void => {
    plans.push({ kind: 'manual', site, reason });
  };
  const loopPlanFor = (loop: TSESTree.ForOfStatement): LoopPlan => {
    let plan = loopPlans.get(loop);
    if (!plan) {
      plan = { kind: 'loop', loop, changes: [], drain: { kind: 'body' } };
      loopPlans.set(loop, plan);
      plans.push(plan);
    }
    return plan;
  };
  const explicitCloses = new Map<LoopPlan, TSESTree.CallExpression>();

  /**
   * A close in a helper the site calls (`finish(reader)`): drained where the call is, when a reader of the response is
   * in hand there or the call is inside a `for await` over it, and the helper does nothing but close (its call becomes
   * the drain's give-up; at EOF it has nothing left to close). Else manual, with the reason.
   */
  const planHelperCall = (site: StreamSite, call: TSESTree.CallExpression, fn: Node | null): void => {
    const helper = site.helper;
    const name = helperName(call);
    const statement = closeStatement(call);
    if (!helper) {
      manual(site, `the close is in \`${name}\`, and which stream it closes is not known here`);
      return;
    }
    if (!statement) {
      manual(site, `the call of \`${name}\`, which closes the stream, is used as a value, not as a statement of its own`);
      return;
    }
    const closeCallee = unwrap(helper.close.callee);
    const method = closeCallee?.type === AST_NODE_TYPES.MemberExpression ? (propertyName(closeCallee) ?? '') : '';
    const target = helper.argument;
    // A helper that closes a stream of its own (`this.controller.abort()`) closes the response that stream belongs to.
    const family = target ? streams.closeFamilyFor(target, method) : closeCallee?.type === AST_NODE_TYPES.MemberExpression ? streams.closeFamilyFor(closeCallee.object, method) : null;
    const loop = family ? enclosingAsyncLoopOf(call, target ?? call, family, streams, sourceCode) : null;
    const reader = target && family && fn ? findReaderInHand(call, target, family, fn, streams, sourceCode) : null;
    if (!reader && !loop) {
      manual(
        site,
        `no reader of this response is in hand where \`${name}\` is called (it closes the stream the code reads elsewhere): let that code read on to EOF, then call \`${name}\`, with a timer for the budget`,
      );
      return;
    }
    if (!closesOnly(helper.fn, (inner) => calledFunction(inner, streams))) {
      manual(site, `\`${name}\` does more than close the stream: a drain before it would hold the rest back until the body ends; drain first where the body is read, then call \`${name}\``);
      return;
    }
    if (reader && !(loop && reader.method === 'next')) {
      const giveUp = callGiveUp(call, sourceCode);
      if (!giveUp) {
        manual(site, `what \`${name}\` is given may change before the drain gives up: keep it in a const`);
        return;
      }
      if (enclosingFinally(statement)) {
        manual(site, `the call of \`${name}\` is in a \`finally\`: call it after the reading, or close the reader there`);
        return;
      }
      const detached = nothingReadsAfter(statement, reader.node, sourceCode);
      if (!detached && (readsOnInLoop(statement, reader.node, sourceCode) || !(fn && 'async' in fn && fn.async))) {
        manual(site, READS_ON_REASON);
        return;
      }
      plans.push({
        kind: 'reader',
        site,
        statement,
        drained: reader.text,
        method: reader.method,
        bytes: reader.method === 'read' && readerYieldsBytes(reader.node, sourceCode),
        giveUp,
        optional: false,
        detached,
        finallyOf: null,
        flag: null,
        closeText: text(statement),
      });
      return;
    }
    const problem = loop ? loopProblem(call, loop) : null;
    if (!loop || problem) {
      manual(site, problem ?? NOTHING_ENDS_DRAIN_REASON);
      return;
    }
    loopPlanFor(loop).changes.push({ site, statement, kind: 'close' });
  };

  for (const site of sites) {
    const node = site.node;
    const fn = enclosingFunction(node);
    if (site.kind === 'helperClose' && node.type === AST_NODE_TYPES.CallExpression) {
      planHelperCall(site, node, fn);
      continue;
    }
    if (fn && dataHandlerCall(fn)) {
      plans.push(node.type === AST_NODE_TYPES.CallExpression ? planDataHandler(site, fn, closeStatement(node), streams, sourceCode) : { kind: 'manual', site, reason: DATA_HANDLER_REASON });
      continue;
    }
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      if (callee?.type !== AST_NODE_TYPES.MemberExpression) {
        manual(site, 'the close is not a method call');
        continue;
      }
      const method = propertyName(callee) ?? '';
      const statement = closeStatement(node);
      if (!statement) {
        manual(site, 'the close is used as a value, not as a statement of its own');
        continue;
      }
      const family = method === 'terminate' ? streams.transformControllerFamily(callee.object) : streams.familyOf(callee.object);
      const loop = family ? enclosingAsyncLoopOf(node, callee.object, family, streams, sourceCode) : null;
      const reader = family && fn ? findReaderInHand(node, callee.object, family, fn, streams, sourceCode) : null;
      if (reader && !(loop && reader.method === 'next')) {
        const finallyOf = enclosingFinally(statement);
        const flag = finallyOf?.handler ? terminalFlag(finallyOf, node, classify(), sourceCode) : null;
        if (finallyOf?.handler && flag === null) {
          manual(site, FINALLY_AFTER_CATCH_REASON);
          continue;
        }
        const detached = finallyOf !== null || nothingReadsAfter(statement, reader.node, sourceCode);
        if (!detached && readsOnInLoop(statement, reader.node, sourceCode)) {
          manual(site, READS_ON_REASON);
          continue;
        }
        if (!detached && !(fn && 'async' in fn && fn.async)) {
          manual(site, 'the reader is read again after the close, and the function is not async, so it cannot wait for the drain');
          continue;
        }
        const tap = reader.method === 'next' && detached && !finallyOf && !isOptionalChain(callee) ? iteratorTap(reader.node, statement, sourceCode) : null;
        if (tap) {
          plans.push({ kind: 'iteratorTap', site, statement, ...tap });
          continue;
        }
        const giveUp = reader.method === 'read' ? giveUpFor(node, reader.node, 'reader', 'cancel', sourceCode) : iteratorGiveUp(node, reader.node, family, fn, streams, sourceCode);
        if (!giveUp) {
          manual(site, method === 'abort' ? PENDING_READ_REASON : NOTHING_ENDS_DRAIN_REASON);
          continue;
        }
        plans.push({
          kind: 'reader',
          site,
          statement,
          drained: reader.text,
          method: reader.method,
          bytes: reader.method === 'read' && readerYieldsBytes(reader.node, sourceCode),
          giveUp,
          optional: isOptionalChain(callee),
          detached,
          finallyOf: finallyOf?.handler ? null : finallyOf,
          flag,
          closeText: text(statement),
        });
        continue;
      }
      if (!loop) {
        manual(site, 'no reader of this response is in hand to drain, and the close is not inside a `for await` over it');
        continue;
      }
      const problem = loopProblem(node, loop);
      if (problem) {
        manual(site, problem);
        continue;
      }
      const plan = loopPlanFor(loop);
      plan.changes.push({ site, statement, kind: 'close' });
      if (!explicitCloses.has(plan)) explicitCloses.set(plan, node);
      continue;
    }
    if (node.type === AST_NODE_TYPES.BreakStatement || node.type === AST_NODE_TYPES.ReturnStatement || node.type === AST_NODE_TYPES.ContinueStatement) {
      const target = node.type === AST_NODE_TYPES.ReturnStatement ? null : jumpTarget(node);
      const loop = innermostLeftAsyncLoop(node, target);
      if (!loop || loop.type !== AST_NODE_TYPES.ForOfStatement) {
        manual(site, COMPILED_OUTPUT_REASON);
        continue;
      }
      const problem = loopProblem(node, loop);
      if (problem) {
        manual(site, problem);
        continue;
      }
      loopPlanFor(loop).changes.push({ site, statement: node, kind: 'jump' });
      continue;
    }
    manual(site, `unsupported site ${node.type}`);
  }

  for (const plan of loopPlans.values()) {
    const drain = loopDrain(plan.loop, explicitCloses.get(plan) ?? null, streams, sourceCode);
    if (drain) {
      plan.drain = drain;
      continue;
    }
    const index = plans.indexOf(plan);
    plans.splice(index, 1, ...plan.changes.map((change): ManualPlan => ({ kind: 'manual', site: change.site, reason: NOTHING_ENDS_DRAIN_REASON })));
  }
  return plans;
}

/** `reader?.cancel()`, `this.reader?.cancel()`, `a?.b.cancel()`: the receiver may be missing where the close runs. */
function isOptionalChain(member: TSESTree.MemberExpression): boolean {
  for (let node: Node = member; node.type === AST_NODE_TYPES.MemberExpression; node = node.object) {
    if (node.optional) return true;
  }
  return false;
}

function resolverFor(sourceCode: SourceCode, sites: readonly StreamSite[]): StreamResolver {
  const fromRule = sites.find((site) => site.streams)?.streams;
  if (fromRule) return fromRule;
  return new StreamResolver({
    getScope: (node) => sourceCode.getScope(node),
    visitorKeys: sourceCode.visitorKeys,
  });
}

/** The expression statement that is just the close (`await x.cancel()`, `x.cancel().catch(…)`, `void x.abort()`). */
function closeStatement(call: Node): Node | null {
  let node: Node = call;
  for (;;) {
    const parent = node.parent;
    if (!parent) return null;
    if (parent.type === AST_NODE_TYPES.AwaitExpression || parent.type === AST_NODE_TYPES.ChainExpression || (parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void')) {
      node = parent;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === node && propertyName(parent) === 'catch' && parent.parent?.type === AST_NODE_TYPES.CallExpression) {
      node = parent.parent;
      continue;
    }
    return parent.type === AST_NODE_TYPES.ExpressionStatement ? parent : null;
  }
}

