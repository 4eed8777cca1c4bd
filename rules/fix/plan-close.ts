import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { propertyName, type Node } from '../javascript/ast.js';

// The close as written at a site: the statement that is nothing but the close, and whether its receiver may be missing.

/** The expression statement that is just the close (`await x.cancel()`, `x.cancel().catch(…)`, `void x.abort()`). */
export function closeStatement(call: Node): Node | null {
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

/** `reader?.cancel()`, `this.reader?.cancel()`, `a?.b.cancel()`: the receiver may be missing where the close runs. */
export function isOptionalChain(member: TSESTree.MemberExpression): boolean {
  for (let node: Node = member; node.type === AST_NODE_TYPES.MemberExpression; node = node.object) {
    if (node.optional) return true;
  }
  return false;
}
