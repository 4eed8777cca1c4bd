import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { isFunction, propertyName, unwrap, type Node } from './ast.js';

/**
 * The writes of a flag the code keeps itself: a variable, a property of a local object (`state.finished`), or a
 * field (`this.done`). Null where some write cannot be seen or is not a plain assignment (the flag may be set from
 * the stream's own data, or elsewhere).
 */
export interface FlagWrites {
  /** The assigned values, with where each assignment is. */
  writes: { value: Node; at: Node }[];
}

type VariableOf = (identifier: TSESTree.Identifier) => TSESLint.Scope.Variable | null;

export function flagWrites(flag: Node, variableOf: VariableOf): FlagWrites | null {
  if (flag.type === AST_NODE_TYPES.Identifier) {
    const variable = variableOf(flag);
    if (!variable || variable.defs.length !== 1) return null;
    const writes: FlagWrites['writes'] = [];
    for (const reference of variable.references) {
      if (!reference.isWrite()) continue;
      if (reference.init) {
        if (reference.writeExpr) writes.push({ value: reference.writeExpr, at: reference.identifier });
        continue;
      }
      const assignment = reference.identifier.parent;
      if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=') return null;
      writes.push({ value: assignment.right, at: assignment });
    }
    return { writes };
  }
  if (flag.type !== AST_NODE_TYPES.MemberExpression || flag.computed) return null;
  const name = propertyName(flag);
  const base = unwrap(flag.object);
  if (!name || !base) return null;
  if (base.type === AST_NODE_TYPES.ThisExpression) return fieldWrites(flag, name);
  if (base.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = variableOf(base);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id !== def.name) return null;
  const init = unwrap(def.node.init);
  if (init?.type !== AST_NODE_TYPES.ObjectExpression) return null;
  const writes: FlagWrites['writes'] = [];
  for (const property of init.properties) {
    if (property.type === AST_NODE_TYPES.Property && !property.computed && keyName(property.key) === name) writes.push({ value: property.value, at: property });
  }
  for (const reference of variable.references) {
    if (reference.init) continue;
    // The object itself reassigned, or handed to code that may set the flag: its writes are not all in sight.
    if (reference.isWrite()) return null;
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) return null;
    if (member.computed || propertyName(member) !== name) continue;
    const written = writeOf(member);
    if (written === 'unknown') return null;
    if (written) writes.push(written);
  }
  return { writes };
}

/** A plain `x.name = value` of the member, null where it is only read, 'unknown' for any other write (`++`, `+=`, destructuring). */
function writeOf(member: TSESTree.MemberExpression): { value: Node; at: Node } | null | 'unknown' {
  const parent = member.parent;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) return parent.operator === '=' ? { value: parent.right, at: parent } : 'unknown';
  if (parent?.type === AST_NODE_TYPES.UpdateExpression) return 'unknown';
  return null;
}

/** The writes of `this.<name>` in the class around `flag`: its declaration's value and every assignment in the class. */
function fieldWrites(flag: Node, name: string): FlagWrites | null {
  let body: TSESTree.ClassBody | null = null;
  for (let current = flag.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) {
      body = current;
      break;
    }
  }
  if (!body) return null;
  const writes: FlagWrites['writes'] = [];
  let unknown = false;
  visit(body, (node) => {
    if (node.type === AST_NODE_TYPES.PropertyDefinition && !node.computed && keyName(node.key) === name && node.value) writes.push({ value: node.value, at: node });
    if (node.type === AST_NODE_TYPES.MemberExpression && unwrap(node.object)?.type === AST_NODE_TYPES.ThisExpression && !node.computed && propertyName(node) === name) {
      const written = writeOf(node);
      if (written === 'unknown') unknown = true;
      else if (written) writes.push(written);
    }
  });
  return unknown ? null : { writes };
}

/** A non-computed key's name (`finished`, `'finished'`, `#finished`). */
function keyName(key: Node): string | null {
  if (key.type === AST_NODE_TYPES.Identifier || key.type === AST_NODE_TYPES.PrivateIdentifier) return key.name;
  return key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string' ? key.value : null;
}

function visit(root: Node, each: (node: Node) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...(value as unknown[]));
      continue;
    }
    if (!isNode(value)) continue;
    each(value);
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'parent' && typeof child === 'object' && child !== null) stack.push(child);
    }
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/**
 * Where a write sits in its function: the test of each branch it is on (`holds`: on the branch taken when the test
 * holds), whether a `catch` or `finally` holds it, and whether it is in a `switch` case.
 */
export interface WritePlace {
  tests: { test: Node; holds: boolean }[];
  inCatchOrFinally: boolean;
  switchCase: boolean;
}

export function placeOf(write: Node): WritePlace {
  const place: WritePlace = { tests: [], inCatchOrFinally: false, switchCase: false };
  let child: Node = write;
  for (let current = write.parent; current; child = current, current = current.parent) {
    if (isFunction(current)) break;
    if ((current.type === AST_NODE_TYPES.IfStatement || current.type === AST_NODE_TYPES.ConditionalExpression) && child !== current.test) {
      place.tests.push({ test: current.test, holds: child === current.consequent });
    }
    if (current.type === AST_NODE_TYPES.LogicalExpression && child === current.right && current.operator !== '??') {
      place.tests.push({ test: current.left, holds: current.operator === '&&' });
    }
    if (current.type === AST_NODE_TYPES.SwitchCase && child !== current.test) place.switchCase = true;
    if (current.type === AST_NODE_TYPES.CatchClause) place.inCatchOrFinally = true;
    if (current.type === AST_NODE_TYPES.TryStatement && child === current.finalizer) place.inCatchOrFinally = true;
  }
  return place;
}
