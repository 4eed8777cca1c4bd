import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, propertyName, unwrap, type Node } from '../analysis/ast.js';
import { variableAt } from './plan-scope.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';


/**
 * Whether `expression` is provably a fetch `Response` (`'response'`) or the web `ReadableStream` of its body (`'body'`),
 * from syntax: a variable never reassigned that is annotated with the global `Response`/`ReadableStream` or initialised
 * by `await fetch(…)` (the global fetch), or `.body` of such a response. A custom response class (one the file imports
 * or declares under that name) proves nothing.
 */
export function webBodyKind(expression: Node, sourceCode: SourceCode): 'response' | 'body' | null {
  const node = expression.type === AST_NODE_TYPES.TSNonNullExpression ? expression.expression : expression;
  if (node.type === AST_NODE_TYPES.MemberExpression && !node.computed && propertyName(node) === 'body') {
    return webBodyKind(node.object, sourceCode) === 'response' ? 'body' : null;
  }
  if (node.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = variableAt(node.name, node, sourceCode);
  if (!variable || variable.defs.length !== 1) return null;
  if (variable.references.some((reference) => reference.writeExpr && !reference.init)) return null;
  const def = variable.defs[0];
  const annotated = annotationKind(declaredType(def.name, sourceCode), node, sourceCode);
  if (annotated) return annotated;
  if (def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id !== def.name || !def.node.init) return null;
  const init = def.node.init;
  if (init.type === AST_NODE_TYPES.AwaitExpression) {
    const call = unwrap(init.argument);
    if (call?.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.Identifier && calleeName(call.callee) === 'fetch' && isGlobal('fetch', call, sourceCode)) {
      return 'response';
    }
  }
  if (init.type === AST_NODE_TYPES.MemberExpression) return webBodyKind(init, sourceCode) === 'body' ? 'body' : null;
  return null;
}

/**
 * The type written for a binding: its own annotation, or, for `{ response }` destructured from an annotated object
 * (`({ response }: { response: Response })`, `const { response } = args` with `args: { response: Response }`), the
 * type of that member in the annotation.
 */
function declaredType(name: Node, sourceCode: SourceCode): TSESTree.TypeNode | undefined {
  const own = name.type === AST_NODE_TYPES.Identifier ? name.typeAnnotation?.typeAnnotation : undefined;
  if (own) return own;
  const property = name.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== name || property.computed || property.parent?.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const key = property.key.type === AST_NODE_TYPES.Identifier ? property.key.name : null;
  const pattern = property.parent;
  let objectType = pattern.typeAnnotation?.typeAnnotation;
  if (!objectType && pattern.parent?.type === AST_NODE_TYPES.VariableDeclarator && pattern.parent.id === pattern && pattern.parent.init?.type === AST_NODE_TYPES.Identifier) {
    const source = variableAt(pattern.parent.init.name, pattern.parent.init, sourceCode);
    const sourceName = source?.defs.length === 1 ? source.defs[0].name : null;
    if (sourceName?.type === AST_NODE_TYPES.Identifier) objectType = sourceName.typeAnnotation?.typeAnnotation;
  }
  if (!key || objectType?.type !== AST_NODE_TYPES.TSTypeLiteral) return undefined;
  for (const member of objectType.members) {
    if (member.type === AST_NODE_TYPES.TSPropertySignature && !member.computed && member.key.type === AST_NODE_TYPES.Identifier && member.key.name === key) {
      return member.typeAnnotation?.typeAnnotation;
    }
  }
  return undefined;
}

function annotationKind(type: TSESTree.TypeNode | undefined, at: Node, sourceCode: SourceCode): 'response' | 'body' | null {
  if (!type) return null;
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    const kinds = type.types
      .filter((member) => member.type !== AST_NODE_TYPES.TSNullKeyword && member.type !== AST_NODE_TYPES.TSUndefinedKeyword)
      .map((member) => annotationKind(member, at, sourceCode));
    return kinds.length === 1 ? kinds[0]! : null;
  }
  if (type.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier) return null;
  const name = type.typeName.name;
  if (name !== 'Response' && name !== 'ReadableStream') return null;
  if (!isGlobal(name, at, sourceCode)) return null;
  return name === 'Response' ? 'response' : 'body';
}

/** The name is not declared or imported in the file (a lib global has no definition). */
function isGlobal(name: string, at: Node, sourceCode: SourceCode): boolean {
  const variable = variableAt(name, at, sourceCode);
  return !variable || variable.defs.length === 0;
}

