import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { calleeName, isFunction, propertyName, unwrap, type Node } from '../javascript/ast.js';
import { DEFAULT_CLOSE_METHODS } from '../javascript/prefilter.js';
import type { GiveUp } from './give-up.js';
import { isStableName } from './plan-scope.js';

// A call of a function of the module that closes the stream for its caller (`finish(reader)`, `closeStream(status,
// controller)`): the drain runs where the call was, and the call itself becomes what the drain does when it gives up.

const CLOSES = new Set(DEFAULT_CLOSE_METHODS);

/**
 * Whether the helper does nothing but close: every statement of its body is a close (`reader.cancel()`, `return
 * controller.abort()`, awaited, `void`ed or with a `.catch(…)`), possibly under a test of its parameters
 * (`if (reader)`). Only then may its call wait until the drain gives up: a helper that also sets state
 * (`status.open = false`) would set it late, or never where the body ends in time.
 */
export function closesOnly(fn: Node, calledFunction: (call: TSESTree.CallExpression) => Node | null, depth = 2): boolean {
  if (!isFunction(fn)) return false;
  const isClose = (expression: Node): boolean => isCloseOrHelper(expression, calledFunction, depth);
  const onlyCloses = (statement: Node): boolean => {
    switch (statement.type) {
      case AST_NODE_TYPES.ExpressionStatement:
        return isClose(statement.expression);
      case AST_NODE_TYPES.ReturnStatement:
        return statement.argument !== null && isClose(statement.argument);
      case AST_NODE_TYPES.BlockStatement:
        return statement.body.every(onlyCloses);
      case AST_NODE_TYPES.IfStatement:
        return isPlainTest(statement.test) && onlyCloses(statement.consequent) && (statement.alternate === null || onlyCloses(statement.alternate));
      default:
        return false;
    }
  };
  if (fn.type === AST_NODE_TYPES.ArrowFunctionExpression && fn.expression) return isClose(fn.body);
  return fn.body.type === AST_NODE_TYPES.BlockStatement && fn.body.body.length > 0 && fn.body.body.every(onlyCloses);
}

/**
 * `x.cancel()`, `await x?.abort(reason)`, `void x.destroy()`, `x.cancel().catch(() => {})`, `a && b.abort()`, or a call
 * of a function of the module that does nothing but close (`finish(r)`, followed `depth` calls deep).
 */
function isCloseOrHelper(expression: Node, calledFunction: (call: TSESTree.CallExpression) => Node | null, depth: number): boolean {
  let node = expression;
  for (;;) {
    if (node.type === AST_NODE_TYPES.AwaitExpression || (node.type === AST_NODE_TYPES.UnaryExpression && node.operator === 'void')) node = node.argument;
    else if (node.type === AST_NODE_TYPES.ChainExpression) node = node.expression;
    else if (node.type === AST_NODE_TYPES.LogicalExpression && node.operator === '&&' && isPlainTest(node.left)) node = node.right;
    else break;
  }
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  const method = callee?.type === AST_NODE_TYPES.MemberExpression ? propertyName(callee) : null;
  if (callee?.type === AST_NODE_TYPES.MemberExpression && method === 'catch') return isCloseOrHelper(callee.object, calledFunction, depth);
  if (method !== null && CLOSES.has(method)) return true;
  const helper = depth > 0 ? calledFunction(node) : null;
  return helper !== null && closesOnly(helper, calledFunction, depth - 1);
}

/** A test that reads names only (`reader`, `!controller`, `state.reader != null`): no call, no assignment. */
function isPlainTest(test: Node): boolean {
  switch (test.type) {
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.Literal:
    case AST_NODE_TYPES.ThisExpression:
      return true;
    case AST_NODE_TYPES.MemberExpression:
      return !test.computed && isPlainTest(test.object);
    case AST_NODE_TYPES.UnaryExpression:
      return isPlainTest(test.argument);
    case AST_NODE_TYPES.BinaryExpression:
      return test.left.type !== AST_NODE_TYPES.PrivateIdentifier && isPlainTest(test.left) && isPlainTest(test.right);
    case AST_NODE_TYPES.LogicalExpression:
      return isPlainTest(test.left) && isPlainTest(test.right);
    case AST_NODE_TYPES.ChainExpression:
      return isPlainTest(test.expression);
    default:
      return false;
  }
}

/**
 * The helper's call as the drain's give-up (`() => finish(reader)`), where every value it passes is read the same when
 * the drain gives up: names that are never assigned again, `this` paths, literals. Null otherwise.
 */
export function callGiveUp(call: TSESTree.CallExpression, sourceCode: SourceCode): GiveUp | null {
  const callee = unwrap(call.callee);
  const stableCallee = callee?.type === AST_NODE_TYPES.Identifier || (callee?.type === AST_NODE_TYPES.MemberExpression && unwrap(callee.object)?.type === AST_NODE_TYPES.ThisExpression);
  if (!stableCallee || !call.arguments.every((argument) => isStableValue(argument, sourceCode))) return null;
  const text = sourceCode.getText(call);
  return { param: null, body: () => text };
}

function isStableValue(node: Node, sourceCode: SourceCode): boolean {
  const value = unwrap(node);
  if (!value) return false;
  if (value.type === AST_NODE_TYPES.Literal || value.type === AST_NODE_TYPES.ThisExpression) return true;
  if (value.type === AST_NODE_TYPES.Identifier) return value.name === 'undefined' || isStableName(value, sourceCode);
  if (value.type === AST_NODE_TYPES.MemberExpression && !value.computed) return isStableValue(value.object, sourceCode);
  return false;
}

/** The name a helper is called by, for a reason's text. */
export function helperName(call: TSESTree.CallExpression): string {
  const callee = unwrap(call.callee);
  const name = callee ? calleeName(callee) : null;
  return callee?.type === AST_NODE_TYPES.MemberExpression ? `this.${name ?? ''}` : (name ?? 'the helper');
}
