import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { propertyName, unwrap, type Node } from './ast.js';
import type { Family } from '../core/effect.js';
import type { StreamResolver } from './streams.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

type Variable = TSESLint.Scope.Variable;

/** Which response's EOF a test reads: the `done` of a read of a response stream (`reader.read()`, `it.next()`). */
export class EofTracker {
  private readonly eofVariables = new Map<Variable, Family | null>();

  constructor(private readonly streams: Pick<StreamResolver, 'familyOf' | 'variableOf'>) {}

  /**
   * `await reader.read()` / `await it.next()` of a response stream, also raced against something else
   * (`Promise.race([read, closed])`, where `const read = reader.read()`).
   */
  readResultFamily(expression: Node | null | undefined): Family | null {
    const node = unwrap(expression);
    if (node?.type === AST_NODE_TYPES.Identifier) return this.pendingReadFamily(node);
    // `(result = await reader.read()).done`
    if (node?.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '=') return this.readResultFamily(node.right);
    if (node?.type !== AST_NODE_TYPES.CallExpression) return null;
    const callee = unwrap(node.callee);
    if (callee?.type !== AST_NODE_TYPES.MemberExpression) return null;
    const method = propertyName(callee);
    const object = unwrap(callee.object);
    if (method === 'race' && object?.type === AST_NODE_TYPES.Identifier && object.name === 'Promise') {
      const list = unwrap(node.arguments[0]);
      if (list?.type !== AST_NODE_TYPES.ArrayExpression) return null;
      for (const element of list.elements) {
        const family = element && element.type !== AST_NODE_TYPES.SpreadElement ? this.readResultFamily(element) : null;
        if (family) return family;
      }
      return null;
    }
    if (method !== 'read' && method !== 'next') return null;
    return this.streams.familyOf(callee.object);
  }

  /** `read` of `const read = reader.read()`: a read in flight, awaited elsewhere. */
  private pendingReadFamily(identifier: TSESTree.Identifier): Family | null {
    const def = this.streams.variableOf(identifier)?.defs[0];
    if (def?.type !== 'Variable' || def.node.id !== def.name || unwrap(def.node.init) !== def.node.init) return null;
    return this.readResultFamily(def.node.init);
  }

  /** The EOF flag: `done` of a read of that stream. */
  eofFamily(expression: Node | null | undefined): Family | null {
    const node = unwrap(expression);
    if (!node) return null;
    if (node.type === AST_NODE_TYPES.MemberExpression && propertyName(node) === 'done') {
      const fromRead = this.readResultFamily(node.object);
      if (fromRead) return fromRead;
      const object = unwrap(node.object);
      if (object?.type === AST_NODE_TYPES.Identifier) {
        const variable = this.streams.variableOf(object);
        if (variable) return this.readResultVariableFamily(variable);
      }
      return null;
    }
    if (node.type === AST_NODE_TYPES.Identifier) {
      const variable = this.streams.variableOf(node);
      return variable ? this.eofVariableFamily(variable) : null;
    }
    return null;
  }

  /** A variable that holds a whole read result (`const r = await reader.read()`), not a value destructured from it. */
  private readResultVariableFamily(variable: Variable): Family | null {
    for (const def of variable.defs) {
      if (def.type === 'Variable') {
        const declarator = def.node;
        if (declarator.id !== def.name) continue;
        const family = this.readResultFamily(declarator.init);
        if (family) return family;
      }
      if (def.type === 'Parameter') {
        const fn: Node = def.node;
        if (!('params' in fn) || fn.params[0] !== def.name) continue;
        const family = this.readCallbackFamily(fn);
        if (family) return family;
      }
    }
    for (const reference of variable.references) {
      if (!reference.writeExpr || reference.init) continue;
      const target = reference.identifier;
      if (target.parent?.type !== AST_NODE_TYPES.AssignmentExpression || target.parent.left !== target) continue;
      const family = this.readResultFamily(reference.writeExpr);
      if (family) return family;
    }
    return null;
  }

  /** `reader.read().then(({ done, value }) => …)`. */
  private readCallbackFamily(fn: Node): Family | null {
    const call = fn.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression) return null;
    const callee = unwrap(call.callee);
    if (callee?.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee) !== 'then') return null;
    return this.readResultFamily(callee.object);
  }

  private eofVariableFamily(variable: Variable): Family | null {
    if (this.eofVariables.has(variable)) return this.eofVariables.get(variable)!;
    this.eofVariables.set(variable, null);
    let family: Family | null = null;
    for (const def of variable.defs) {
      const name = def.name;
      if (def.type === 'Variable') {
        const declarator = def.node;
        family = declarator.id === name ? this.eofFamily(declarator.init) : this.doneFromPattern(name, declarator.init);
      } else if (def.type === 'Parameter' && isDoneProperty(name)) {
        family = this.readCallbackFamily(def.node);
      }
      if (family) break;
    }
    if (!family) {
      for (const reference of variable.references) {
        if (!reference.writeExpr || reference.init) continue;
        const target = reference.identifier;
        family =
          target.parent?.type === AST_NODE_TYPES.AssignmentExpression && target.parent.left === target
            ? this.eofFamily(reference.writeExpr)
            : this.doneFromPattern(target, reference.writeExpr);
        if (family) break;
      }
    }
    this.eofVariables.set(variable, family);
    return family;
  }

  private doneFromPattern(name: Node, init: Node | null | undefined): Family | null {
    return isDoneProperty(name) ? this.readResultFamily(init) : null;
  }
}

function isDoneProperty(name: Node): boolean {
  const property = name.parent;
  return (
    property?.type === AST_NODE_TYPES.Property &&
    property.value === name &&
    property.parent?.type === AST_NODE_TYPES.ObjectPattern &&
    property.key.type === AST_NODE_TYPES.Identifier &&
    property.key.name === 'done'
  );
}
