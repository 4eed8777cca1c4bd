import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { isFunction, walk, type Node } from '../javascript/ast.js';
import type { BranchTestClassifier } from '../javascript/branch-tests.js';
import { inScopeAt, variableAt } from './plan-scope.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/**
 * For a close in the `finally` of a `try` that also has a `catch`: a flag set to `true` in the `try` block where the
 * terminal event is recognised (`if (type === 'completed') complete = true`), or a completion flag the rule itself
 * takes for the terminal event (`complete = true` wherever it is set), declared outside the `try` and in scope at the
 * close. When it is set, the stream said it is finished and a drain is what the close should become; when it is
 * not, the `finally` runs after an error or an early stop, and the close stays as it was.
 */
export function terminalFlag(tryStatement: TSESTree.TryStatement, close: Node, classifier: BranchTestClassifier, sourceCode: SourceCode): string | null {
  let found: string | null = null;
  walk(tryStatement.block, sourceCode.visitorKeys, (node) => {
    if (found !== null || node.type !== AST_NODE_TYPES.AssignmentExpression || node.operator !== '=') return;
    if (node.left.type !== AST_NODE_TYPES.Identifier || node.right.type !== AST_NODE_TYPES.Literal || node.right.value !== true) return;
    const name = node.left.name;
    // Set where a terminal test holds, or a completion flag by its name, as the rule reads `complete = true`.
    if (classifier.flagSetTo(node) === null) {
      const test = enclosingIfTest(node, tryStatement.block);
      if (!test || classifier.classify(test).pos.kind !== 'gen') return;
    }
    const variable = variableAt(name, node, sourceCode);
    const declaration = variable?.defs[0];
    if (declaration?.node.type !== AST_NODE_TYPES.VariableDeclarator || !inScopeAt(node.left, close, sourceCode)) return;
    const [start, end] = tryStatement.range;
    if (declaration.node.range[0] >= start && declaration.node.range[1] <= end) return;
    found = name;
  });
  return found;
}

/** The test of the nearest `if` whose consequent holds `node`, within `root` and the same function. */
function enclosingIfTest(node: Node, root: Node): Node | null {
  for (let child: Node = node, current = node.parent; current && child !== root; child = current, current = current.parent) {
    if (isFunction(current)) return null;
    if (current.type === AST_NODE_TYPES.IfStatement && current.consequent === child) return current.test;
  }
  return null;
}
