import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, propertyName, unwrap, walk, type Node } from '../javascript/ast.js';
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
  // Compared as a string (as rules/javascript does): scope-manager's enum would load that package (~0.1 s) with the plugin.
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


const READER_TYPES = new Set(['ReadableStreamDefaultReader', 'ReadableStreamReader', 'ReadableStreamBYOBReader']);
const BYTE_TYPES = new Set(['Uint8Array', 'ArrayBuffer', 'Buffer']);

/**
 * Whether a reader provably yields the body's own chunks (so a drain of it counts the bytes as they arrive), not
 * parsed messages: a reader typed as one of bytes (`ReadableStreamDefaultReader<Uint8Array>`), or every value it is
 * given is `s.getReader()` of a stream typed as bytes (`ReadableStream<Uint8Array>`), of a fetch body, or of some
 * value's `.body` (the Fetch API's name for the raw body). A reader kept in a field is looked up in the class's
 * declaration of it.
 */
export function readerYieldsBytes(reader: Node, sourceCode: SourceCode): boolean {
  const node = unwrap(reader);
  if (node?.type === AST_NODE_TYPES.MemberExpression && node.object.type === AST_NODE_TYPES.ThisExpression) {
    const name = propertyName(node);
    const body = enclosingClassBody(node);
    if (!name || !body) return false;
    const field = classField(body, name);
    const declared = streamChunkType(field?.typeAnnotation?.typeAnnotation, READER_TYPES);
    if (declared !== undefined) return declared;
    const values = [...(field?.value ? [field.value] : []), ...fieldAssignments(body, name, sourceCode)].filter((value) => !isNothing(value));
    return values.length > 0 && values.every((value) => getReaderOfBytes(value, sourceCode));
  }
  if (node?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = variableAt(node.name, node, sourceCode);
  if (!variable || variable.defs.length !== 1) return false;
  const declared = streamChunkType(declaredType(variable.defs[0].name, sourceCode), READER_TYPES);
  if (declared !== undefined) return declared;
  const values = variable.references.map((reference) => reference.writeExpr).filter((value) => value && !isNothing(value)) as Node[];
  const ofField = (value: Node): boolean => {
    const member = unwrap(value);
    return member?.type === AST_NODE_TYPES.MemberExpression && member.object.type === AST_NODE_TYPES.ThisExpression && readerYieldsBytes(member, sourceCode);
  };
  return values.length > 0 && values.every((value) => getReaderOfBytes(value, sourceCode) || ofField(value));
}

/** The values assigned to `this.<name>` in a class. */
function fieldAssignments(body: TSESTree.ClassBody, name: string, sourceCode: SourceCode): Node[] {
  const values: Node[] = [];
  walk(body, sourceCode.visitorKeys, (node) => {
    if (node.type !== AST_NODE_TYPES.AssignmentExpression || node.operator !== '=') return;
    const left = unwrap(node.left);
    if (left?.type === AST_NODE_TYPES.MemberExpression && left.object.type === AST_NODE_TYPES.ThisExpression && propertyName(left) === name) values.push(node.right);
  });
  return values;
}

/** `s.getReader()` (awaited or not) where `s` is a stream of bytes. */
function getReaderOfBytes(value: Node, sourceCode: SourceCode): boolean {
  const call = unwrap(value.type === AST_NODE_TYPES.AwaitExpression ? value.argument : value);
  if (call?.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(call.callee);
  if (callee?.type !== AST_NODE_TYPES.MemberExpression || propertyName(callee) !== 'getReader') return false;
  const stream = unwrap(callee.object);
  if (!stream) return false;
  if (stream.type === AST_NODE_TYPES.MemberExpression && !stream.computed && propertyName(stream) === 'body') return true;
  if (webBodyKind(stream, sourceCode) === 'body') return true;
  if (stream.type !== AST_NODE_TYPES.Identifier) return false;
  // Named for the body (`body`, `responseBody`), as the rule's syntax-only mode reads `response`/`res`.
  if (/(?:^b|B)ody$/.test(stream.name)) return true;
  const variable = variableAt(stream.name, stream, sourceCode);
  if (!variable || variable.defs.length !== 1) return false;
  return streamChunkType(declaredType(variable.defs[0].name, sourceCode), new Set(['ReadableStream'])) === true;
}

/**
 * For a type written as one of `names` (`ReadableStream<Uint8Array>`, `ReadableStreamDefaultReader<Event>`, unions with
 * null/undefined): whether its chunks are bytes, or undefined where the type says nothing (absent, another type, no
 * type argument).
 */
function streamChunkType(type: TSESTree.TypeNode | undefined, names: ReadonlySet<string>): boolean | undefined {
  if (!type) return undefined;
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    const kinds = type.types
      .filter((member) => member.type !== AST_NODE_TYPES.TSNullKeyword && member.type !== AST_NODE_TYPES.TSUndefinedKeyword)
      .map((member) => streamChunkType(member, names));
    return kinds.length === 1 ? kinds[0] : undefined;
  }
  if (type.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier || !names.has(type.typeName.name)) return undefined;
  if (type.typeName.name === 'ReadableStreamBYOBReader') return true;
  const [chunk] = type.typeArguments?.params ?? [];
  if (!chunk) return undefined;
  return chunk.type === AST_NODE_TYPES.TSTypeReference && chunk.typeName.type === AST_NODE_TYPES.Identifier && BYTE_TYPES.has(chunk.typeName.name);
}

function enclosingClassBody(node: Node): TSESTree.ClassBody | null {
  for (let current: Node | undefined = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
  }
  return null;
}

/** The class's declaration of the property `name`, if it has one. */
function classField(body: TSESTree.ClassBody, name: string): TSESTree.PropertyDefinition | null {
  for (const element of body.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.computed && element.key.type === AST_NODE_TYPES.Identifier && element.key.name === name) return element;
  }
  return null;
}

/** `null` or `undefined` (a reader's starting value before it is given one). */
function isNothing(value: Node): boolean {
  return (value.type === AST_NODE_TYPES.Literal && value.value === null) || (value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined');
}
