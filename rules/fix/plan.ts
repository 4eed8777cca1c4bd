import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, isFunction, isLoop, propertyName, unwrap, walk, type Node } from '../analysis/ast.js';
import { BranchTestClassifier } from '../analysis/branch-tests.js';
import type { Family } from '../analysis/effect.js';
import { StreamResolver } from '../analysis/streams.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from '../analysis/words.js';
import { innermostLeftAsyncLoop, jumpTarget } from '../analysis/jumps.js';
import type { StreamSite } from '../analysis/site.js';
import { abortGiveUp, giveUpFor, stableGiveUp, type GiveUp } from './give-up.js';
import { dataHandlerCall, planDataHandler, type DataHandlerPlan } from './plan-data-handler.js';
import { terminalFlag } from './plan-flag.js';
import { enclosingFinally, enclosingFunction, inScopeAt, isStatementListItem, nextStatement, variableAt } from './plan-scope.js';
import { webBodyKind } from './web-body.js';
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

/** A site inside a `for await`: the loop iterates a drainable wrapper; the completion branch hands the rest of it to a background drain. */
export interface LoopChange {
  site: StreamSite;
  statement: Node;
  /** `close`: the close statement is replaced by the hand-off; `jump`: the hand-off goes before the break/return/continue. */
  kind: 'close' | 'jump';
}

/**
 * How the rest of a `for await` loop's stream is drained after the hand-off:
 * - `iterator`: the loop's own iterator is read on, and `giveUp` (the request's controller, or the close the branch
 *   made) ends a pending read past the limits;
 * - `tap`: the loop runs over a parser given a fetch Response or body (`iterSSE(response)`); the parser is handed a
 *   stand-in fed from a reader of the real body, which the drain reads as raw bytes (no parsing of the tail);
 * - `body`: the loop runs over a body stream of unknown kind itself: a web stream is tapped, a Node stream destroyed.
 */
export type LoopDrain = { kind: 'iterator'; giveUp: GiveUp } | { kind: 'tap'; argument: Node; what: 'response' | 'body' } | { kind: 'body' };

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

export type Plan = ReaderPlan | LoopPlan | DataHandlerPlan | ManualPlan;

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

  for (const site of sites) {
    const node = site.node;
    const fn = enclosingFunction(node);
    if (fn && dataHandlerCall(fn)) {
      plans.push(node.type === AST_NODE_TYPES.CallExpression ? planDataHandler(site, fn, closeStatement(node), streams, sourceCode) : { kind: 'manual', site, reason: DATA_HANDLER_REASON });
      continue;
    }
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee) as TSESTree.MemberExpression;
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
        if (!detached && !(fn as TSESTree.FunctionLike | null)?.async) {
          manual(site, 'the reader is read again after the close, and the function is not async, so it cannot wait for the drain');
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

/** What can drain the rest of the loop's stream and end that drain past the limits (see {@link LoopDrain}), or null. */
function loopDrain(loop: TSESTree.ForOfStatement, close: TSESTree.CallExpression | null, streams: StreamResolver, sourceCode: SourceCode): LoopDrain | null {
  const tap = tappableArgument(loop, sourceCode);
  if (tap) return { kind: 'tap', ...tap };
  const family = streams.asyncLoopFamily(loop);
  const controller = family ? findRequestController(loop, family, streams, sourceCode) : null;
  if (controller) return { kind: 'iterator', giveUp: abortGiveUp(controller) };
  // A close of the loop's own stream cannot end a pending read of it (a web stream is locked to the loop's iterator).
  const closesOther = close !== null && !closesIterated(close, loop, sourceCode);
  const giveUp = closesOther ? stableGiveUp(close, loop.right, sourceCode) : null;
  if (giveUp) return { kind: 'iterator', giveUp };
  if (!iteratesStreamItself(loop)) return null;
  return webBodyKind(loop.right, sourceCode) === 'body' ? { kind: 'tap', argument: loop.right, what: 'body' } : { kind: 'body' };
}

/** `reader?.cancel()`, `this.reader?.cancel()`, `a?.b.cancel()`: the receiver may be missing where the close runs. */
function isOptionalChain(member: TSESTree.MemberExpression): boolean {
  for (let node: Node = member; node.type === AST_NODE_TYPES.MemberExpression; node = node.object) {
    if (node.optional) return true;
  }
  return false;
}

function closesIterated(close: TSESTree.CallExpression, loop: TSESTree.ForOfStatement, sourceCode: SourceCode): boolean {
  const callee = unwrap(close.callee) as TSESTree.MemberExpression;
  const strip = (node: Node): string => sourceCode.getText(node).replace(/[!?]+$/, '');
  return strip(callee.object) === strip(loop.right);
}

/**
 * An iterator of parsed messages (`messages.next()`) can only be stopped by the request's AbortController: the close
 * itself where it aborts one (`controller.abort()`), else the controller whose signal went into the request.
 */
function iteratorGiveUp(close: TSESTree.CallExpression, iterator: Node, family: Family | null, fn: Node | null, streams: StreamResolver, sourceCode: SourceCode): GiveUp | null {
  const callee = unwrap(close.callee) as TSESTree.MemberExpression;
  if (propertyName(callee) === 'abort') {
    const own = stableGiveUp(close, iterator, sourceCode);
    if (own) return own;
  }
  const controller = family && fn ? findRequestController(close, family, streams, sourceCode) : null;
  return controller ? abortGiveUp(controller) : null;
}

function resolverFor(sourceCode: SourceCode, sites: readonly StreamSite[]): StreamResolver {
  const fromRule = sites.find((site) => site.streams)?.streams;
  if (fromRule) return fromRule;
  return new StreamResolver({
    getScope: (node) => sourceCode.getScope(node),
    visitorKeys: sourceCode.visitorKeys,
  });
}

/** `for await (… of res.body)`, `of res`, `of this.stream`: the loop runs over the stream itself, whose reader the wrapper can hold (or which it can destroy). */
function iteratesStreamItself(loop: TSESTree.ForOfStatement): boolean {
  const right = unwrap(loop.right);
  return right?.type === AST_NODE_TYPES.Identifier || right?.type === AST_NODE_TYPES.MemberExpression;
}

/** The argument of the call that builds the loop's iterator that is provably a fetch Response or its body, if any. */
function tappableArgument(loop: TSESTree.ForOfStatement, sourceCode: SourceCode): { argument: Node; what: 'response' | 'body' } | null {
  const right = unwrap(loop.right);
  if (right?.type !== AST_NODE_TYPES.CallExpression && right?.type !== AST_NODE_TYPES.NewExpression) return null;
  for (const argument of right.arguments) {
    const what = argument.type === AST_NODE_TYPES.SpreadElement ? null : webBodyKind(argument, sourceCode);
    if (what) return { argument, what };
  }
  return null;
}

/** Why the loop cannot iterate a drainable wrapper, or null when it can. */
function loopProblem(node: Node, loop: TSESTree.ForOfStatement): string | null {
  for (let current = node.parent; current && current !== loop; current = current.parent) {
    if (isFunction(current)) return 'the close is in a nested function';
  }
  const holder = loop.parent?.type === AST_NODE_TYPES.LabeledStatement ? loop.parent : loop;
  if (!isStatementListItem(holder)) return 'the `for await` is not in a block of statements, so the drainable iterator cannot be declared before it';
  return null;
}




/**
 * Whether nothing can read the reader again after the close statement, so a background drain cannot race the code:
 * the statement after the close leaves every loop that reads it (return, throw, break out of it), or no loop reading it
 * encloses the close and no read or releaseLock of it follows. A reader kept in a field may be read by other methods.
 */
function nothingReadsAfter(statement: Node, reader: Node, sourceCode: SourceCode): boolean {
  const target = unwrap(reader);
  if (target?.type !== AST_NODE_TYPES.Identifier) return false;
  const name = target.name;
  // `const reader = this.reader`: other methods read the same reader.
  const definition = (variableAt(name, reader, sourceCode) as { defs?: Array<{ node: Node }> } | null)?.defs?.[0]?.node;
  if (definition?.type === AST_NODE_TYPES.VariableDeclarator && definition.init && /\bthis\b/.test(sourceCode.getText(definition.init))) return false;
  const fn = enclosingFunction(statement);
  const fnText = fn ? sourceCode.getText(fn) : sourceCode.text;
  if (new RegExp(`\\b${name}\\s*\\.\\s*releaseLock\\b`).test(fnText)) return false;
  const readPattern = new RegExp(`\\b${name}\\s*\\.\\s*read\\b`);
  const readingLoops: Node[] = [];
  for (let current = statement.parent; current && current !== fn; current = current.parent) {
    if (isLoop(current) && readPattern.test(sourceCode.getText(current))) readingLoops.push(current);
  }
  // Statements that neither read the reader nor jump (`downstream.close();`) may come before the statement that leaves.
  let next = nextStatement(statement);
  while (next && next.type === AST_NODE_TYPES.ExpressionStatement && !readPattern.test(sourceCode.getText(next))) next = nextStatement(next);
  if (next?.type === AST_NODE_TYPES.ReturnStatement || next?.type === AST_NODE_TYPES.ThrowStatement) return !readPattern.test(sourceCode.getText(next));
  if (next?.type === AST_NODE_TYPES.BreakStatement && readingLoops.length > 0) {
    const target = jumpTarget(next);
    if (target && target === readingLoops[readingLoops.length - 1]) return afterIsFree(target, readPattern, fn, sourceCode);
    if (target && readingLoops.includes(target)) return afterIsFree(readingLoops[readingLoops.length - 1], readPattern, fn, sourceCode);
  }
  if (readingLoops.length > 0) return false;
  return afterIsFree(statement, readPattern, fn, sourceCode);
}

/** The close is inside a loop that reads the reader, and does not leave it right after: the loop's next read() follows. */
function readsOnInLoop(statement: Node, reader: Node, sourceCode: SourceCode): boolean {
  const target = unwrap(reader);
  if (target?.type !== AST_NODE_TYPES.Identifier) return false;
  const readPattern = new RegExp(`\\b${target.name}\\s*\\.\\s*read\\b`);
  const fn = enclosingFunction(statement);
  const readingLoops: Node[] = [];
  for (let current = statement.parent; current && current !== fn; current = current.parent) {
    if (isLoop(current) && readPattern.test(sourceCode.getText(current))) readingLoops.push(current);
  }
  if (readingLoops.length === 0) return false;
  let next = nextStatement(statement);
  while (next && next.type === AST_NODE_TYPES.ExpressionStatement && !readPattern.test(sourceCode.getText(next))) next = nextStatement(next);
  if (next?.type === AST_NODE_TYPES.ReturnStatement || next?.type === AST_NODE_TYPES.ThrowStatement) return false;
  // `break` out of the innermost loop that reads (or out of one around it) leaves before the next read.
  return !(next?.type === AST_NODE_TYPES.BreakStatement && readingLoops.includes(jumpTarget(next) as Node));
}

function afterIsFree(node: Node, readPattern: RegExp, fn: Node | null, sourceCode: SourceCode): boolean {
  const end = (node.range)[1];
  const fnEnd = fn ? (fn.range)[1] : sourceCode.text.length;
  return !readPattern.test(sourceCode.text.slice(end, fnEnd));
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


/** A reader or iterator of the same response that this function reads with `.read()`/`.next()` and that is in scope at the close. */
function findReaderInHand(
  close: Node,
  receiver: Node,
  family: Family,
  fn: Node,
  streams: StreamResolver,
  sourceCode: SourceCode,
): { text: string; node: Node; method: 'read' | 'next' } | null {
  const receiverText = sourceCode.getText(receiver).replace(/[!?]+$/, '');
  const searchRoot = unwrap(receiver)?.type === AST_NODE_TYPES.MemberExpression ? enclosingClassOrSelf(fn) : fn;
  let best: { text: string; node: Node; method: 'read' | 'next' } | null = null;
  walk(searchRoot, sourceCode.visitorKeys, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length > 0) return;
    const callee = unwrap(node.callee);
    if (callee?.type !== AST_NODE_TYPES.MemberExpression) return;
    const method = calleeName(callee);
    if (method !== 'read' && method !== 'next') return;
    const object = callee.object as Node;
    const objectText = sourceCode.getText(object);
    if (best && best.text.replace(/[!?]+$/, '') === receiverText) return;
    if (objectText.replace(/[!?]+$/, '') !== receiverText && streams.familyOf(object) !== family) return;
    if (!inScopeAt(object, close, sourceCode)) return;
    best = { text: objectText, node: object, method };
  });
  const found = best as { text: string; node: Node; method: 'read' | 'next' } | null;
  // Drain the receiver as written at the close (`this.reader!`), so its narrowing and assertions stay where they were.
  if (found && found.text.replace(/[!?]+$/, '') === receiverText) return { ...found, text: sourceCode.getText(receiver) };
  return found;
}

function enclosingClassOrSelf(fn: Node): Node {
  for (let current = fn.parent; current; current = current.parent) if (current.type === AST_NODE_TYPES.ClassBody) return current;
  return fn;
}




/** The `for await` around the close that iterates the closed response or something derived from it (`response.events()`, `iterSSE(response)`). */
function enclosingAsyncLoopOf(node: Node, receiver: Node, family: Family, streams: StreamResolver, sourceCode: SourceCode): TSESTree.ForOfStatement | null {
  const receiverText = sourceCode.getText(receiver).replace(/[!?]+$/, '');
  const derivedFromReceiver = (right: Node): boolean => {
    const call = unwrap(right);
    if (call?.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = unwrap(call.callee);
    const parts = [...(callee?.type === AST_NODE_TYPES.MemberExpression ? [callee.object as Node] : []), ...(call.arguments as Node[])];
    return parts.some((part) => sourceCode.getText(part).replace(/[!?]+$/, '') === receiverText);
  };
  for (let current = node.parent; current; current = current.parent) {
    if (isFunction(current)) return null;
    if (current.type !== AST_NODE_TYPES.ForOfStatement || !current.await) continue;
    if (streams.familyOf(current.right) === family || derivedFromReceiver(current.right)) return current;
  }
  return null;
}

const CONTROLLER_NAME = /(^|\.)(\w*controller|abort\w*)$/i;

/**
 * The `AbortController` of the request read at `at` (a loop, or a close), found where code keeps it: an argument of the
 * call that builds the loop's iterator (`iterSSE(response, controller)`, `{ signal: controller.signal }`,
 * `{ controller }`); a `new AbortController()` whose signal went into the request; a field or variable whose `.signal`
 * the function passes on. Wherever its signal went, its abort() ends a pending read of that request's body.
 */
function findRequestController(at: Node, family: Family, streams: StreamResolver, sourceCode: SourceCode): string | null {
  const keys = sourceCode.visitorKeys as Record<string, readonly string[]>;
  const fn = enclosingFunction(at);
  const text = (node: Node): string => sourceCode.getText(node);
  // `controller`, `this.controller`, `options.controller`: a name in scope at the loop, or a non-computed path from one.
  const usable = (node: Node): boolean => {
    const target = unwrap(node);
    if (target?.type === AST_NODE_TYPES.Identifier) return inScopeAt(target, at, sourceCode);
    if (target?.type !== AST_NODE_TYPES.MemberExpression || target.computed) return false;
    return unwrap(target.object)?.type === AST_NODE_TYPES.ThisExpression || usable(target.object);
  };
  const fromArgument = (argument: Node): string | null => {
    const value = unwrap(argument);
    if (!value) return null;
    if ((value.type === AST_NODE_TYPES.Identifier || value.type === AST_NODE_TYPES.MemberExpression) && CONTROLLER_NAME.test(text(value)) && usable(value)) return text(value);
    if (value.type === AST_NODE_TYPES.MemberExpression && propertyName(value) === 'signal' && usable(value.object)) return text(value.object);
    if (value.type === AST_NODE_TYPES.ObjectExpression) {
      for (const property of value.properties) {
        if (property.type !== AST_NODE_TYPES.Property) continue;
        const found = fromArgument(property.value);
        if (found) return found;
      }
    }
    return null;
  };
  const iterated = at.type === AST_NODE_TYPES.ForOfStatement ? unwrap(at.right) : null;
  if (iterated?.type === AST_NODE_TYPES.CallExpression) {
    for (const argument of iterated.arguments) {
      const found = fromArgument(argument);
      if (found) return found;
    }
  }
  if (!fn) return null;
  let found: string | null = null;
  walk(fn, keys, (node) => {
    if (found) return;
    if (node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.Identifier) {
      const init = unwrap(node.init);
      if (init?.type === AST_NODE_TYPES.NewExpression && calleeName(init.callee) === 'AbortController' && streams.familyOf(node.id) === family && inScopeAt(node.id, at, sourceCode)) {
        found = node.id.name;
      }
    }
  });
  if (found) return found;
  // `signal: this.controller.signal` / `fetch(url, { signal: controller.signal })` anywhere in the function.
  walk(fn, keys, (node) => {
    if (found || node.type !== AST_NODE_TYPES.MemberExpression || propertyName(node) !== 'signal') return;
    const object = node.object as Node;
    if (CONTROLLER_NAME.test(text(object)) && usable(object)) found = text(object);
  });
  return found;
}
