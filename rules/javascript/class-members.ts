import type { TSESTree } from '@typescript-eslint/utils';
import { isDownleveledAsyncBody, propertyName, unwrap, walk, type Node } from './ast.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/** What a class says about its fields: `this.x = …` assignments, field definitions, parameter properties, `this.x.signal` uses. */
export interface ClassMembers {
  assignments: Array<[string, Node]>;
  definitions: Array<TSESTree.PropertyDefinition>;
  parameters: Array<TSESTree.TSParameterProperty>;
  signalUses: Array<[string, TSESTree.MemberExpression]>;
}

function emptyMembers(): ClassMembers {
  return { assignments: [], definitions: [], parameters: [], signalUses: [] };
}

/**
 * Collects class members either from the rule's own traversal (`note`, one pass over the file, no extra walk)
 * or, for callers outside a traversal such as the codemod, by walking the class once on first use.
 */
export class ClassMemberIndex {
  private readonly byClass = new Map<Node, ClassMembers>();

  constructor(
    private readonly visitorKeys: Record<string, readonly string[] | undefined>,
    private readonly fedByTraversal: boolean,
  ) {}

  /** Feeds one node of the traversal (AssignmentExpression, PropertyDefinition, TSParameterProperty, MemberExpression). */
  note(node: Node): void {
    const classNode = enclosingClass(node);
    if (classNode) this.add(this.membersOf(classNode, false), node, classNode);
  }

  members(classNode: Node): ClassMembers {
    return this.membersOf(classNode, !this.fedByTraversal);
  }

  private membersOf(classNode: Node, walkIfNew: boolean): ClassMembers {
    let members = this.byClass.get(classNode);
    if (!members) {
      members = emptyMembers();
      this.byClass.set(classNode, members);
      if (walkIfNew) {
        const collected = members;
        walk(classNode, this.visitorKeys, (node) => this.add(collected, node, classNode));
      }
    }
    return members;
  }

  private add(members: ClassMembers, node: Node, classNode: Node): void {
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression && unwrap(node.left.object)?.type === AST_NODE_TYPES.ThisExpression) {
      const name = propertyName(node.left);
      if (name) members.assignments.push([name, node.right]);
    } else if (node.type === AST_NODE_TYPES.PropertyDefinition && node.key.type === AST_NODE_TYPES.Identifier && node.parent?.parent === classNode) {
      members.definitions.push(node);
    } else if (node.type === AST_NODE_TYPES.TSParameterProperty && node.parameter.type === AST_NODE_TYPES.Identifier) {
      members.parameters.push(node);
    } else if (node.type === AST_NODE_TYPES.MemberExpression && propertyName(node) === 'signal') {
      const object = unwrap(node.object);
      if (object?.type !== AST_NODE_TYPES.MemberExpression || unwrap(object.object)?.type !== AST_NODE_TYPES.ThisExpression) return;
      const field = propertyName(object);
      if (field) members.signalUses.push([field, node]);
    }
  }
}

export function enclosingClass(node: Node): Node | null {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current.parent ?? null;
    if (current.type === AST_NODE_TYPES.FunctionDeclaration || current.type === AST_NODE_TYPES.FunctionExpression) {
      const holder = current.parent;
      if (holder?.type !== AST_NODE_TYPES.MethodDefinition && holder?.type !== AST_NODE_TYPES.PropertyDefinition && !isDownleveledAsyncBody(current)) return null;
    }
  }
  return null;
}
