import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { isDownleveledAsyncBody, isFunction, propertyName, unwrap, walk, type Node } from './ast.js';
import { enclosingClass } from './class-members.js';
import type { Effect } from '../core/effect.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

// What a called function returns, read from its source: which function a call runs, its own returns, and
// whether a return ends a terminal-event branch. The classifier summarises dispatchers with these.

/** What these read from the stream resolver (rules/javascript/streams.ts), which keeps both per file. */
export interface FunctionLookup {
  variableOf(identifier: TSESTree.Identifier): TSESLint.Scope.Variable | null;
  returnsOf(fn: Node): TSESTree.ReturnStatement[];
}

/** `null`, `undefined`, `void 0`, or nothing (`return;`). */
export function isNullish(node: Node | null | undefined): boolean {
  const value = node ?? null;
  if (!value) return true;
  if (value.type === AST_NODE_TYPES.Literal) return value.value === null && !('regex' in value);
  if (value.type === AST_NODE_TYPES.Identifier) return value.name === 'undefined';
  return value.type === AST_NODE_TYPES.UnaryExpression && value.operator === 'void';
}

/**
 * The function a call runs: `this.method(…)` of the enclosing class, `fn(…)` declared in the module, or a method of the
 * object a module function returns (`const { getResults } = await connect(…); getResults()`, `conn.getResults()`).
 */
export function calledFunction(call: TSESTree.CallExpression, streams: FunctionLookup, depth = 2): Node | null {
  const callee = unwrap(call.callee);
  if (callee?.type === AST_NODE_TYPES.MemberExpression && unwrap(callee.object)?.type === AST_NODE_TYPES.ThisExpression) {
    const name = propertyName(callee);
    const classNode = enclosingClass(call);
    if (!name || (classNode?.type !== AST_NODE_TYPES.ClassDeclaration && classNode?.type !== AST_NODE_TYPES.ClassExpression)) return null;
    return methodsOf(classNode).get(name) ?? null;
  }
  if (callee?.type === AST_NODE_TYPES.MemberExpression) {
    const object = unwrap(callee.object);
    const name = propertyName(callee);
    if (object?.type !== AST_NODE_TYPES.Identifier || !name || depth === 0) return null;
    const def = streams.variableOf(object)?.defs[0];
    return def?.type === 'Variable' && def.node.id === def.name ? returnedMethod(def.node.init, name, streams, depth - 1) : null;
  }
  if (callee?.type === AST_NODE_TYPES.Identifier) {
    const def = streams.variableOf(callee)?.defs[0];
    if (def?.type === 'FunctionName') return def.node;
    if (def?.type !== 'Variable') return null;
    const init = unwrap(def.node.init);
    if (init && isFunction(init)) return init;
    const property = def.name.parent;
    if (depth === 0 || property?.type !== AST_NODE_TYPES.Property || property.value !== def.name || property.parent?.type !== AST_NODE_TYPES.ObjectPattern || property.parent !== def.node.id) return null;
    const key = property.computed ? null : property.key.type === AST_NODE_TYPES.Identifier ? property.key.name : null;
    return key ? returnedMethod(def.node.init, key, streams, depth - 1) : null;
  }
  return null;
}

const methodTables = new WeakMap<Node, Map<string, TSESTree.FunctionExpression | TSESTree.TSEmptyBodyFunctionExpression>>();

/** A class's methods by name (the first of a name, as a look-up from its start finds it), built once per class: a class of an SDK has hundreds. */
function methodsOf(classNode: TSESTree.ClassDeclaration | TSESTree.ClassExpression): Map<string, TSESTree.FunctionExpression | TSESTree.TSEmptyBodyFunctionExpression> {
  let table = methodTables.get(classNode);
  if (!table) {
    table = new Map();
    for (const member of classNode.body.body) {
      if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'method' && !member.computed && member.key.type === AST_NODE_TYPES.Identifier && !table.has(member.key.name)) {
        table.set(member.key.name, member.value);
      }
    }
    methodTables.set(classNode, table);
  }
  return table;
}

/** The function under `key` in the object literal that the call `value` returns. */
function returnedMethod(value: Node | null | undefined, key: string, streams: FunctionLookup, depth: number): Node | null {
  const call = unwrap(value);
  const fn = call?.type === AST_NODE_TYPES.CallExpression ? calledFunction(call, streams, depth) : null;
  if (!fn) return null;
  for (const statement of streams.returnsOf(fn)) {
    const object = unwrap(statement.argument);
    if (object?.type !== AST_NODE_TYPES.ObjectExpression) continue;
    for (const property of object.properties) {
      if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier || property.key.name !== key) continue;
      const method = unwrap(property.value);
      if (method && isFunction(method)) return method;
    }
  }
  return null;
}

/**
 * The return statements of `fn` itself, including those of a downleveled async body it wraps (`__awaiter(this, …,
 * function* () {…})`). Callers go through StreamResolver#returnsOf, which keeps them per function.
 */
export function ownReturns(fn: Node, visitorKeys: Record<string, readonly string[] | undefined>): TSESTree.ReturnStatement[] {
  const returns: TSESTree.ReturnStatement[] = [];
  const body = fn.type === AST_NODE_TYPES.ArrowFunctionExpression || fn.type === AST_NODE_TYPES.FunctionExpression || fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.body : fn;
  walk(body, visitorKeys, (node) => {
    if (isFunction(node) && !isDownleveledAsyncBody(node)) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement) returns.push(node);
  });
  return returns;
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
