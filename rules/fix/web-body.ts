import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, propertyName, unwrap, type Node } from '../analysis/ast.js';
import { variableAt } from './plan-scope.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';


type WebBodyKind = 'response' | 'body';

/**
 * Whether `expression` is provably a fetch `Response` (`'response'`) or the web `ReadableStream` of its body (`'body'`),
 * from syntax: a variable never reassigned that is annotated with the global `Response`/`ReadableStream` or initialised
 * by `await fetch(…)` (the global fetch), `.body` of such a response, or a parameter of a function of this file that
 * only this file calls, and every call passes such a value there. A custom response class (one the file imports or
 * declares under that name) proves nothing.
 */
export function webBodyKind(expression: Node, sourceCode: SourceCode, seen: ReadonlySet<Node> = new Set()): WebBodyKind | null {
  const node = expression.type === AST_NODE_TYPES.TSNonNullExpression ? expression.expression : expression;
  if (node.type === AST_NODE_TYPES.MemberExpression && !node.computed && propertyName(node) === 'body') {
    return webBodyKind(node.object, sourceCode, seen) === 'response' ? 'body' : null;
  }
  if (node.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = variableAt(node.name, node, sourceCode);
  if (!variable || variable.defs.length !== 1) return null;
  if (variable.references.some((reference) => reference.writeExpr && !reference.init)) return null;
  const def = variable.defs[0];
  const annotated = annotationKind(declaredType(def.name, sourceCode), node, sourceCode);
  if (annotated) return annotated;
  // Compared as a string (as rules/analysis does): scope-manager's enum would load that package (~0.1 s) with the plugin.
  if (String(def.type) === 'Parameter') return parameterKind(def.name, def.node, sourceCode, seen);
  if (def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id !== def.name || !def.node.init) return null;
  const init = def.node.init;
  if (init.type === AST_NODE_TYPES.AwaitExpression) {
    const call = unwrap(init.argument);
    if (call?.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.Identifier && calleeName(call.callee) === 'fetch' && isGlobal('fetch', call, sourceCode)) {
      return 'response';
    }
  }
  if (init.type === AST_NODE_TYPES.MemberExpression) return webBodyKind(init, sourceCode, seen) === 'body' ? 'body' : null;
  return null;
}

/**
 * A plain parameter of a function that is a local name (`function f(…)`, `const f = (…) => …`) not exported, whose every
 * use is a direct call: what all those calls pass at its position is what it is.
 */
function parameterKind(parameter: Node, fn: Node, sourceCode: SourceCode, seen: ReadonlySet<Node>): WebBodyKind | null {
  if (seen.has(parameter) || !('params' in fn)) return null;
  const index = fn.params.findIndex((candidate) => candidate === parameter);
  const name = functionName(fn);
  if (index < 0 || !name) return null;
  const variable = variableAt(name.name, name, sourceCode);
  const calls = variable?.references.filter((reference) => !reference.init) ?? [];
  if (!variable || variable.defs.length !== 1 || calls.length === 0) return null;
  const within = new Set([...seen, parameter]);
  let kind: WebBodyKind | null = null;
  for (const { identifier } of calls) {
    const call = identifier.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== identifier) return null;
    const passed = call.arguments.slice(0, index + 1);
    if (passed.length <= index || passed.some((argument) => argument.type === AST_NODE_TYPES.SpreadElement)) return null;
    const argumentKind = webBodyKind(passed[index], sourceCode, within);
    if (!argumentKind || (kind && kind !== argumentKind)) return null;
    kind = argumentKind;
  }
  return kind;
}

/** The name a function is declared under in its module, where nothing exports it. */
function functionName(fn: Node): TSESTree.Identifier | null {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) {
    return fn.id && !isExported(fn) ? fn.id : null;
  }
  const declarator = fn.parent;
  if ((fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) || declarator?.type !== AST_NODE_TYPES.VariableDeclarator) return null;
  const declaration = declarator.parent;
  if (declarator.init !== fn || declarator.id.type !== AST_NODE_TYPES.Identifier || declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const') return null;
  return isExported(declaration) ? null : declarator.id;
}

function isExported(declaration: Node): boolean {
  const parent = declaration.parent?.type;
  return parent === AST_NODE_TYPES.ExportNamedDeclaration || parent === AST_NODE_TYPES.ExportDefaultDeclaration;
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

function annotationKind(type: TSESTree.TypeNode | undefined, at: Node, sourceCode: SourceCode): WebBodyKind | null {
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

