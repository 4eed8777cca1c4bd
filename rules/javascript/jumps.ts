import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { asyncLoopIterable, isFunction, isLoop, type Node } from './ast.js';

/** The statement a `break`/`continue` transfers to. */
export function jumpTarget(node: TSESTree.BreakStatement | TSESTree.ContinueStatement): Node | null {
  for (let current: Node | undefined = node.parent; current; current = current.parent) {
    if (isFunction(current)) return null;
    if (node.label) {
      if (current.type === AST_NODE_TYPES.LabeledStatement && current.label.name === node.label.name) return current.body;
    } else if (isLoop(current) || (node.type === AST_NODE_TYPES.BreakStatement && current.type === AST_NODE_TYPES.SwitchStatement)) {
      return current;
    }
  }
  return null;
}

/** The innermost async-iteration loop that the jump leaves (return leaves all in the function; continue to the loop itself leaves none). */
export function innermostLeftAsyncLoop(node: Node, target: Node | null): Node | null {
  const isReturn = node.type === AST_NODE_TYPES.ReturnStatement;
  for (let current = node.parent; current; current = current.parent) {
    if (isFunction(current)) return null;
    const leaves = isReturn || node.type === AST_NODE_TYPES.BreakStatement || current !== target;
    if (asyncLoopIterable(current) !== null && leaves) return current;
    if (!isReturn && current === target) return null;
  }
  return null;
}

/**
 * The `break`/`return`/`continue` right after a close statement that leaves a `for await` (`body.destroy(); return;`).
 * The rule reports that pair once, at the close; the codemod rewrites both.
 */
export function jumpAfterClose(close: Node): Node | null {
  let expression: Node = close;
  while (expression.parent?.type === AST_NODE_TYPES.AwaitExpression || expression.parent?.type === AST_NODE_TYPES.YieldExpression || expression.parent?.type === AST_NODE_TYPES.ChainExpression) {
    expression = expression.parent;
  }
  const statement = expression.parent;
  if (statement?.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  const block = statement.parent;
  const statements = block?.type === AST_NODE_TYPES.BlockStatement ? block.body : block?.type === AST_NODE_TYPES.SwitchCase ? block.consequent : null;
  const next = statements?.[statements.indexOf(statement) + 1];
  if (next?.type !== AST_NODE_TYPES.BreakStatement && next?.type !== AST_NODE_TYPES.ReturnStatement && next?.type !== AST_NODE_TYPES.ContinueStatement) return null;
  return innermostLeftAsyncLoop(next, next.type === AST_NODE_TYPES.ReturnStatement ? null : jumpTarget(next)) ? next : null;
}
