import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isFunction, unwrap, type Node } from '../javascript/ast.js';
import { variableNamed } from '../javascript/scope.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/** Where the planner looks things up: names in scope, enclosing functions and statements. */


/** The variable `name` names at `node`: the planner's one scope lookup. */
export function variableAt(name: string, node: Node, sourceCode: SourceCode): TSESLint.Scope.Variable | null {
  return variableNamed(name, sourceCode.getScope(node));
}

/** An identifier names the same variable at `at`; `this.x` and `name.x` paths always do. */
export function inScopeAt(expression: Node, at: Node, sourceCode: SourceCode): boolean {
  const target = unwrap(expression);
  if (target?.type === AST_NODE_TYPES.MemberExpression) return unwrap(target.object)?.type === AST_NODE_TYPES.ThisExpression || target.object.type === AST_NODE_TYPES.Identifier;
  if (target?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = variableAt(target.name, expression, sourceCode);
  return variable !== null && variable === variableAt(target.name, at, sourceCode);
}

/**
 * A name whose value cannot change after it is set: a `const`, or a `let`, `var` or parameter never assigned again.
 * A drain's close that runs later on such a name closes what the original close closed.
 */
export function isStableName(expression: Node, sourceCode: SourceCode): boolean {
  const target = unwrap(expression);
  if (target?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = variableAt(target.name, target, sourceCode);
  if (!variable || variable.defs.length !== 1) return false;
  return variable.references.every((reference) => !reference.isWrite() || reference.init === true);
}

export function enclosingFunction(node: Node): Node | null {
  for (let current = node.parent; current; current = current.parent) if (isFunction(current)) return current;
  return null;
}

export function isStatementListItem(statement: Node): boolean {
  const parent = statement.parent?.type;
  return parent === AST_NODE_TYPES.BlockStatement || parent === AST_NODE_TYPES.SwitchCase || parent === AST_NODE_TYPES.Program || parent === AST_NODE_TYPES.StaticBlock;
}

function statementList(statement: Node): readonly Node[] | null {
  const parent = statement.parent;
  if (parent?.type === AST_NODE_TYPES.BlockStatement || parent?.type === AST_NODE_TYPES.Program || parent?.type === AST_NODE_TYPES.StaticBlock) return parent.body;
  return parent?.type === AST_NODE_TYPES.SwitchCase ? parent.consequent : null;
}

export function nextStatement(statement: Node): Node | null {
  const list = statementList(statement);
  if (!list) return null;
  return list[list.indexOf(statement) + 1] ?? null;
}

export function previousStatement(statement: Node): Node | null {
  const list = statementList(statement);
  if (!list) return null;
  const index = list.indexOf(statement);
  return index > 0 ? list[index - 1] : null;
}

/** The `try` whose `finally` block holds `statement` (in the same function), if any. */
export function enclosingFinally(statement: Node): TSESTree.TryStatement | null {
  for (let current: Node = statement; current.parent; current = current.parent) {
    const parent = current.parent;
    if (isFunction(parent)) return null;
    if (parent.type === AST_NODE_TYPES.TryStatement && parent.finalizer === current) return parent;
  }
  return null;
}
