import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { calleeName, propertyName, unwrap, walk, type Node } from '../javascript/ast.js';
import type { Family } from '../core/effect.js';
import type { StreamResolver } from '../javascript/streams.js';
import { abortGiveUp, stableGiveUp, type GiveUp } from './give-up.js';
import { enclosingFunction, inScopeAt } from './plan-scope.js';

// The request's AbortController, which ends a pending read that a drain past its limits gives up on.

const CONTROLLER_NAME = /(^|\.)(\w*controller|abort\w*)$/i;

/**
 * The `AbortController` of the request read at `at` (a loop, or a close), found where code keeps it: an argument of the
 * call that builds the loop's iterator (`iterSSE(response, controller)`, `{ signal: controller.signal }`,
 * `{ controller }`); a `new AbortController()` whose signal went into the request; a field or variable whose `.signal`
 * the function passes on. Wherever its signal went, its abort() ends a pending read of that request's body.
 */
export function findRequestController(at: Node, family: Family, streams: StreamResolver, sourceCode: SourceCode): string | null {
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
  walk(fn, sourceCode.visitorKeys, (node) => {
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
  walk(fn, sourceCode.visitorKeys, (node) => {
    if (found || node.type !== AST_NODE_TYPES.MemberExpression || propertyName(node) !== 'signal') return;
    const object = node.object;
    if (CONTROLLER_NAME.test(text(object)) && usable(object)) found = text(object);
  });
  return found;
}

/**
 * An iterator of parsed messages (`messages.next()`) can only be stopped by the request's AbortController: the close
 * itself where it aborts one (`controller.abort()`), else the controller whose signal went into the request.
 */
export function iteratorGiveUp(close: TSESTree.CallExpression, iterator: Node, family: Family | null, fn: Node | null, streams: StreamResolver, sourceCode: SourceCode): GiveUp | null {
  const callee = unwrap(close.callee);
  if (callee?.type === AST_NODE_TYPES.MemberExpression && propertyName(callee) === 'abort') {
    const own = stableGiveUp(close, iterator, sourceCode);
    if (own) return own;
  }
  const controller = family && fn ? findRequestController(close, family, streams, sourceCode) : null;
  return controller ? abortGiveUp(controller) : null;
}
