import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { isFunction, unwrap, type Node } from '../javascript/ast.js';
import type { Family } from '../core/effect.js';
import type { StreamResolver } from '../javascript/streams.js';
import { abortGiveUp, stableGiveUp, type GiveUp } from './give-up.js';
import { findRequestController } from './plan-controller.js';
import { isStatementListItem } from './plan-scope.js';
import { webBodyKind } from './web-body.js';

// A site inside a `for await`: which loop it leaves, whether the loop can iterate a drainable wrapper, and what drains
// the rest of its stream.

/**
 * How the rest of a `for await` loop's stream is drained after the hand-off:
 * - `iterator`: the loop's own iterator is read on, and `giveUp` (the request's controller, or the close the branch
 *   made) ends a pending read past the limits; `bytes`: it provably yields the body's chunks (`res.body` of a fetch),
 *   else its items may be parsed messages, and what the parser drops is never counted against the byte limit;
 * - `tap`: the loop runs over a parser given a fetch Response or body (`iterSSE(response)`); the parser is handed a
 *   stand-in fed from a reader of the real body, which the drain reads as raw bytes (no parsing of the tail);
 * - `body`: the loop runs over a body stream of unknown kind itself: a web stream is tapped, a Node stream destroyed.
 */
export type LoopDrain = { kind: 'iterator'; giveUp: GiveUp; bytes: boolean } | { kind: 'tap'; argument: Node; what: 'response' | 'body' } | { kind: 'body' };

/** What can drain the rest of the loop's stream and end that drain past the limits (see {@link LoopDrain}), or null. */
export function loopDrain(loop: TSESTree.ForOfStatement, close: TSESTree.CallExpression | null, streams: StreamResolver, sourceCode: SourceCode): LoopDrain | null {
  const tap = tappableArgument(loop, sourceCode);
  if (tap) return { kind: 'tap', ...tap };
  const family = streams.asyncLoopFamily(loop);
  const bytes = webBodyKind(loop.right, sourceCode) === 'body';
  const controller = family ? findRequestController(loop, family, streams, sourceCode) : null;
  if (controller) return { kind: 'iterator', giveUp: abortGiveUp(controller), bytes };
  // A close of the loop's own stream cannot end a pending read of it (a web stream is locked to the loop's iterator).
  const closesOther = close !== null && !closesIterated(close, loop, sourceCode);
  const giveUp = closesOther ? stableGiveUp(close, loop.right, sourceCode) : null;
  if (giveUp) return { kind: 'iterator', giveUp, bytes };
  if (!iteratesStreamItself(loop)) return null;
  return bytes ? { kind: 'tap', argument: loop.right, what: 'body' } : { kind: 'body' };
}

function closesIterated(close: TSESTree.CallExpression, loop: TSESTree.ForOfStatement, sourceCode: SourceCode): boolean {
  const callee = unwrap(close.callee);
  const strip = (node: Node): string => sourceCode.getText(node).replace(/[!?]+$/, '');
  return callee?.type === AST_NODE_TYPES.MemberExpression && strip(callee.object) === strip(loop.right);
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
export function loopProblem(node: Node, loop: TSESTree.ForOfStatement): string | null {
  for (let current = node.parent; current && current !== loop; current = current.parent) {
    if (isFunction(current)) return 'the close is in a nested function';
  }
  const holder = loop.parent?.type === AST_NODE_TYPES.LabeledStatement ? loop.parent : loop;
  if (!isStatementListItem(holder)) return 'the `for await` is not in a block of statements, so the drainable iterator cannot be declared before it';
  return null;
}

/** The `for await` around the close that iterates the closed response or something derived from it (`response.events()`, `iterSSE(response)`). */
export function enclosingAsyncLoopOf(node: Node, receiver: Node, family: Family, streams: StreamResolver, sourceCode: SourceCode): TSESTree.ForOfStatement | null {
  const receiverText = sourceCode.getText(receiver).replace(/[!?]+$/, '');
  const derivedFromReceiver = (right: Node): boolean => {
    const call = unwrap(right);
    if (call?.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = unwrap(call.callee);
    const parts: Node[] = [...(callee?.type === AST_NODE_TYPES.MemberExpression ? [callee.object] : []), ...call.arguments];
    return parts.some((part) => sourceCode.getText(part).replace(/[!?]+$/, '') === receiverText);
  };
  for (let current = node.parent; current; current = current.parent) {
    if (isFunction(current)) return null;
    if (current.type !== AST_NODE_TYPES.ForOfStatement || !current.await) continue;
    if (streams.familyOf(current.right) === family || derivedFromReceiver(current.right)) return current;
  }
  return null;
}
