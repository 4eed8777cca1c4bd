import type { TSESTree } from '@typescript-eslint/utils';
import { isDownleveledAsyncBody, isFunction, propertyName, unwrap, type Node } from './ast.js';
import { enclosingClass } from './class-members.js';
import type { Effect } from './branch-tests.js';
import type { StreamResolver } from './streams.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

// What a called function returns, read from its source: which function a call runs, its own returns, and
// whether a return ends a terminal-event branch. The classifier summarises dispatchers with these.

/** `null`, `undefined`, `void 0`, or nothing (`return;`). */
export function isNullish(node: Node | null | undefined): boolean {
  const value = node ?? null;
  if (!value) return true;
  if (value.type === AST_NODE_TYPES.Literal) return value.value === null && !('regex' in value);
  if (value.type === AST_NODE_TYPES.Identifier) return value.name === 'undefined';
  return value.type === AST_NODE_TYPES.UnaryExpression && value.operator === 'void';
}

/** The function a call runs: `this.method(…)` of the enclosing class, or `fn(…)` declared in the module. */
export function calledFunction(call: TSESTree.CallExpression, streams: StreamResolver): Node | null {
  const callee = unwrap(call.callee);
  if (callee?.type === AST_NODE_TYPES.MemberExpression && unwrap(callee.object)?.type === AST_NODE_TYPES.ThisExpression) {
    const name = propertyName(callee);
    const classNode = enclosingClass(call);
    if (!name || (classNode?.type !== AST_NODE_TYPES.ClassDeclaration && classNode?.type !== AST_NODE_TYPES.ClassExpression)) return null;
    for (const member of classNode.body.body) {
      if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'method' && !member.computed && member.key.type === AST_NODE_TYPES.Identifier && member.key.name === name) {
        return member.value;
      }
    }
    return null;
  }
  if (callee?.type === AST_NODE_TYPES.Identifier) {
    const def = streams.variableOf(callee)?.defs[0];
    if (def?.type === 'FunctionName') return def.node;
    if (def?.type === 'Variable') {
      const init = unwrap(def.node.init);
      if (init && isFunction(init)) return init;
    }
  }
  return null;
}

/** The return statements of `fn` itself, including those of a downleveled async body it wraps (`__awaiter(this, …, function* () {…})`). */
export function ownReturns(fn: Node): TSESTree.ReturnStatement[] {
  const returns: TSESTree.ReturnStatement[] = [];
  const visit = (node: Node | null | undefined): void => {
    if (!node) return;
    if (node !== fn && isFunction(node) && !isDownleveledAsyncBody(node)) return;
    if (node.type === AST_NODE_TYPES.ReturnStatement) returns.push(node);
    for (const value of Object.values(node)) {
      if (value === node.parent) continue;
      if (Array.isArray(value)) value.forEach((item) => isNode(item) && visit(item));
      else if (isNode(value)) visit(value);
    }
  };
  visit(fn.type === AST_NODE_TYPES.ArrowFunctionExpression || fn.type === AST_NODE_TYPES.FunctionExpression || fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.body : fn);
  return returns;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The label of the terminal test whose branch `statement` ends (the innermost `if` it is the consequent of), else null. */
export function terminalBranchOf(statement: Node, effectOf: (test: Node) => Effect): string | null {
  let node: Node = statement;
  let parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.BlockStatement) {
    if (parent.body[parent.body.length - 1] !== node) return null;
    node = parent;
    parent = node.parent;
  }
  if (parent?.type !== AST_NODE_TYPES.IfStatement || parent.consequent !== node) return null;
  const effect = effectOf(parent.test);
  return effect.kind === 'gen' ? effect.label : null;
}
