import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { unwrap, type Node } from '../javascript/ast.js';
import { enclosingFunction, isStableName, isStatementListItem, variableAt } from './plan-scope.js';
import { webBodyKind } from './web-body.js';

/** The `const` declaration of an iterator in hand, and the argument of its parser that is the response or its body. */
export interface IteratorTap {
  declaration: Node;
  argument: Node;
  what: 'response' | 'body';
}

/**
 * `const messages = parse(response.body)` in the function of the close, with an argument that is provably a fetch
 * Response or its body: what the tap needs to hand the parser a stand-in.
 */
export function iteratorTap(iterator: Node, close: Node, sourceCode: SourceCode): IteratorTap | null {
  const target = unwrap(iterator);
  if (target?.type !== AST_NODE_TYPES.Identifier || !isStableName(target, sourceCode)) return null;
  const declarator = variableAt(target.name, target, sourceCode)?.defs[0]?.node;
  const declaration = declarator?.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declaration?.type !== AST_NODE_TYPES.VariableDeclaration) return null;
  if (declaration.kind !== 'const' || declaration.declarations.length !== 1 || !isStatementListItem(declaration)) return null;
  if (enclosingFunction(declaration) !== enclosingFunction(close)) return null;
  const call = unwrap(declarator.init);
  if (call?.type !== AST_NODE_TYPES.CallExpression) return null;
  for (const argument of call.arguments) {
    const what = argument.type === AST_NODE_TYPES.SpreadElement ? null : webBodyKind(argument, sourceCode);
    if (what) return { declaration, argument, what };
  }
  return null;
}
