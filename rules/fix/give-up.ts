import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrap, type Node } from '../javascript/ast.js';
import { isStableName, variableAt } from './plan-scope.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/**
 * What a drain does when it gives up (past its time or byte limit): the original close, arguments and all, written as
 * an arrow function the helper calls with the drained object. Where the close names a value that may change before
 * then (`this.reader`, a `let` set again), the arrow takes the drained object as its parameter instead.
 */
export interface GiveUp {
  /** A base name for the arrow's parameter, or null for `() => …`. */
  param: string | null;
  /** The arrow's body, given the parameter's (fresh) name. */
  body: (param: string) => string;
}

const strip = (text: string): string => text.replace(/[!?]+$/, '');

/**
 * The give-up of a drain of `drained` (the reader or stream in hand) whose original close is the call `close`. A close
 * of the drained object itself keeps its arguments (a cancel reason), through the arrow's parameter (named from
 * `paramBase`) where the name may change before then; a close of something else (the request's controller) is kept as
 * written where what it names cannot change, else the drained object's own `ownClose()` stands in for it.
 */
export function giveUpFor(close: TSESTree.CallExpression, drained: Node, paramBase: string, ownClose: string, sourceCode: SourceCode): GiveUp {
  const { method, argumentsText, receiver } = parts(close, sourceCode);
  if (sameObject(receiver, drained, sourceCode)) {
    const drainedText = strip(sourceCode.getText(drained));
    if (isStableName(drained, sourceCode)) return { param: null, body: () => `${drainedText}.${method}${argumentsText}` };
    return { param: paramBase, body: (param) => `${param}.${method}${argumentsText}` };
  }
  return stableGiveUp(close, drained, sourceCode) ?? { param: paramBase, body: (param) => `${param}.${ownClose}()` };
}

/**
 * The close as written, where what it names cannot change before the drain gives up (a `const`, a name never assigned
 * again, a `this` path, read then as the code reads it); null otherwise.
 */
export function stableGiveUp(close: TSESTree.CallExpression, drained: Node, sourceCode: SourceCode): GiveUp | null {
  const { method, argumentsText, receiver, optional } = parts(close, sourceCode);
  if (sameObject(receiver, drained, sourceCode)) {
    // The drained object is in hand where the drain starts (`if (reader)` guards an optional one).
    return isStableName(drained, sourceCode) ? { param: null, body: () => `${strip(sourceCode.getText(drained))}.${method}${argumentsText}` } : null;
  }
  if (!isStableName(receiver, sourceCode) && !isThisPath(receiver)) return null;
  return { param: null, body: () => `${sourceCode.getText(receiver)}${optional ? '?.' : '.'}${method}${argumentsText}` };
}

/** `reader` and `reader!`, or `reader` and the `this.reader!` it was set from (`const reader = this.reader!`). */
function sameObject(receiver: Node, drained: Node, sourceCode: SourceCode): boolean {
  const receiverText = strip(sourceCode.getText(receiver));
  if (receiverText === strip(sourceCode.getText(drained))) return true;
  const target = unwrap(drained);
  if (target?.type !== AST_NODE_TYPES.Identifier || !isStableName(target, sourceCode)) return false;
  const definition = variableAt(target.name, target, sourceCode)?.defs[0]?.node;
  return definition?.type === AST_NODE_TYPES.VariableDeclarator && definition.init !== null && strip(sourceCode.getText(definition.init)) === receiverText;
}

function parts(close: TSESTree.CallExpression, sourceCode: SourceCode): { method: string; argumentsText: string; receiver: Node; optional: boolean } {
  const callee = unwrap(close.callee);
  // The rule reports a close only as a method call (`x.cancel()`, `x?.['abort']()`).
  if (callee?.type !== AST_NODE_TYPES.MemberExpression) throw new Error(`drainguard: the close ${sourceCode.getText(close)} is not a method call`);
  return {
    method: sourceCode.getText(callee.property),
    argumentsText: sourceCode.text.slice(callee.range[1], close.range[1]),
    receiver: callee.object,
    optional: callee.optional,
  };
}

/** `this.controller`, `this.options.controller`: read when the budget runs out, as the code reads it. */
function isThisPath(node: Node): boolean {
  const target = unwrap(node);
  if (target?.type === AST_NODE_TYPES.ThisExpression) return true;
  return target?.type === AST_NODE_TYPES.MemberExpression && !target.computed && isThisPath(target.object);
}

/** A give-up that aborts a controller (`controller.abort()`), for drains found through the request's controller. */
export function abortGiveUp(controller: string): GiveUp {
  return { param: null, body: () => `${controller}.abort()` };
}

/** The arrow function's text in the file's style (`(reader) =>` or `reader =>`). */
export function arrowText(giveUp: GiveUp, param: string, arrowParens: boolean): string {
  if (giveUp.param === null) return `() => ${giveUp.body(param)}`;
  return `${arrowParens ? `(${param})` : param} => ${giveUp.body(param)}`;
}
