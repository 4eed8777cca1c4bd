import type { TSESTree, TSESLint } from '@typescript-eslint/utils';
import { asyncLoopIterable, calleeName, isAsyncIteratorKey, isFunction, propertyName, unwrap, walk, type Node } from './ast.js';
import type { Family } from './effect.js';
import type { TypeOracle } from './types.js';
import { ClassMemberIndex, enclosingClass, type ClassMembers } from './class-members.js';
import { calledFunction, ownReturns } from './function-results.js';
import { variableNamed } from './scope.js';
import { isBodyName, isResponseName, words } from './words.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

type Scope = TSESLint.Scope.Scope;
type Variable = TSESLint.Scope.Variable;


const STREAM_TYPE_NAMES = new Set([
  'Response', 'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamReader',
  'ReadableStreamBYOBReader', 'IncomingMessage', 'Readable',
]);
const DERIVING_METHODS = new Set(['getReader', 'pipeThrough', 'pipe', 'values', 'getIterator']);
/** Derivations that only a web stream has: `x.body.getReader()` of any value is a fetch body's reader. */
const WEB_STREAM_DERIVING_METHODS = new Set(['getReader', 'pipeThrough']);
/** Options of a request besides its `url` (`getFromApi({ url, headers, abortSignal, fetch })`). */
const REQUEST_OPTION_KEYS = new Set(['headers', 'method', 'signal', 'abortSignal', 'body', 'fetch', 'fetchFn', 'fetchImpl']);
const NOT_A_STREAM_METHODS = new Set(['tee', 'read', 'next', 'text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes', 'releaseLock', 'cancel', 'abort', 'then', 'catch', 'finally']);
const NODE_HTTP_CALLS = new Set(['get', 'request']);
const UNDICI_CALLS = new Set(['request', 'stream', 'fetch']);

export type { TypeOracle };

export interface StreamResolverOptions {
  getScope: (node: Node) => Scope;
  visitorKeys: Record<string, readonly string[] | undefined>;
  typeOracle?: TypeOracle;
  /** The caller feeds `classMembers.note()` with every class member during its traversal and asks for families only after it. */
  collectClassMembers?: boolean;
  /**
   * Also take names that end in `stream`/`body` (a `this.stream` field set from the constructor's `stream` option)
   * for response streams. Only asked about a loop whose chunks are decoded as bytes: elsewhere such names are too common.
   */
  bodyNames?: boolean;
}

/** Decides, syntax-first, which expressions are response streams (docs/rules/no-early-stream-close.md, "Response streams") and which response each belongs to. */
export class StreamResolver {
  private readonly variableFamilies = new Map<Variable, Family | null>();
  private readonly classFields = new Map<Node, Map<string, Family | null>>();
  private readonly returnedFamilies = new Map<Node, Family | null>();
  private readonly returns = new Map<Node, TSESTree.ReturnStatement[]>();
  /** Fed by the rule's traversal when `collectClassMembers` is true; walks each class on demand otherwise. */
  readonly classMembers: ClassMemberIndex;
  /** The same resolver with `bodyNames`, made on first use. */
  private bodyResolver: StreamResolver | undefined;

  constructor(
    private readonly options: StreamResolverOptions,
    classMembers?: ClassMemberIndex,
  ) {
    this.classMembers = classMembers ?? new ClassMemberIndex(options.visitorKeys, options.collectClassMembers ?? false);
  }

  private isStreamName(name: string): boolean {
    return isResponseName(name) || (this.options.bodyNames === true && isBodyName(name));
  }

  private bodies(): StreamResolver {
    return (this.bodyResolver ??= this.options.bodyNames ? this : new StreamResolver({ ...this.options, bodyNames: true }, this.classMembers));
  }

  familyOf(expression: Node | null | undefined): Family | null {
    const node = unwrap(expression);
    if (!node) return null;
    switch (node.type) {
      case AST_NODE_TYPES.Identifier: {
        const variable = this.variableOf(node);
        if (variable) return this.familyOfVariable(variable);
        return this.isStreamName(node.name) ? `global:${node.name}` : null;
      }
      case AST_NODE_TYPES.MemberExpression:
        return this.familyOfMember(node);
      case AST_NODE_TYPES.CallExpression:
        return this.familyOfCall(node);
      case AST_NODE_TYPES.NewExpression:
        return this.familyOfArguments(node.arguments);
      case AST_NODE_TYPES.ConditionalExpression:
        return this.familyOf(node.consequent) ?? this.familyOf(node.alternate);
      case AST_NODE_TYPES.LogicalExpression:
        return this.familyOf(node.left) ?? this.familyOf(node.right);
      case AST_NODE_TYPES.AssignmentExpression:
        return this.familyOf(node.right);
      default:
        return null;
    }
  }

  /**
   * The response a `for await` (or its downleveled `__asyncValues` form) iterates. A loop that decodes its chunks
   * as bytes iterates a body even when only its name says so (`stream`, `this.stream`, `body`).
   */
  asyncLoopFamily(loop: Node): Family | null {
    const iterable = asyncLoopIterable(loop);
    if (!iterable) return null;
    const family = this.familyOf(iterable) ?? this.anyBodyFamily(iterable);
    if (family || this.options.bodyNames || !decodesChunks(loop, this.options.visitorKeys)) return family;
    return this.bodies().familyOf(iterable);
  }

  /** The response a close receiver belongs to; inside a loop that decodes a body named by its name, that body too. */
  closeFamily(receiver: Node): Family | null {
    const family = this.familyOf(receiver) ?? this.anyBodyFamily(receiver);
    if (family || this.options.bodyNames) return family;
    for (let current = receiver.parent; current && !isFunction(current); current = current.parent) {
      if (!asyncLoopIterable(current) || !decodesChunks(current, this.options.visitorKeys)) continue;
      const bodyFamily = this.bodies().familyOf(receiver);
      if (bodyFamily && bodyFamily === this.asyncLoopFamily(current)) return bodyFamily;
    }
    return null;
  }

  /** `controller.terminate()` where `controller` is the controller of a TransformStream piped from a response. */
  transformControllerFamily(expression: Node): Family | null {
    const node = unwrap(expression);
    if (node?.type !== AST_NODE_TYPES.Identifier) return null;
    const variable = this.variableOf(node);
    const def = variable?.defs[0];
    if (!def || def.type !== 'Parameter') return null;
    const fn: Node = def.node;
    const holder = fn.parent?.type === AST_NODE_TYPES.Property ? fn.parent : null;
    const object = holder?.parent;
    const construct = object?.parent;
    if (object?.type !== AST_NODE_TYPES.ObjectExpression || construct?.type !== AST_NODE_TYPES.NewExpression || calleeName(construct.callee) !== 'TransformStream') {
      return null;
    }
    return this.pipedFrom(construct);
  }

  private pipedFrom(transform: Node): Family | null {
    const parent = transform.parent;
    if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.some((argument) => argument === transform)) {
      const callee = unwrap(parent.callee);
      if (callee?.type === AST_NODE_TYPES.MemberExpression && propertyName(callee) === 'pipeThrough') return this.familyOf(callee.object);
    }
    if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === transform && parent.id.type === AST_NODE_TYPES.Identifier) {
      const variable = this.variableOf(parent.id);
      for (const reference of variable?.references ?? []) {
        if (reference.init || !reference.isRead()) continue;
        const family = this.pipedFrom(reference.identifier);
        if (family) return family;
      }
    }
    return null;
  }

  variableOf(identifier: TSESTree.Identifier): Variable | null {
    return variableNamed(identifier.name, this.options.getScope(identifier));
  }

  private familyOfMember(node: TSESTree.MemberExpression): Family | null {
    const name = propertyName(node);
    if (name === 'body' || name === 'readable') {
      const family = this.familyOf(node.object);
      if (family) return family;
    }
    // axios: `res.data` of a request made with `responseType: 'stream'` is the body.
    if (name === 'data') {
      const family = this.familyOf(node.object);
      if (family && isCallFamily(family) && asksForStream(family)) return family;
    }
    const object = unwrap(node.object);
    if (object?.type === AST_NODE_TYPES.ThisExpression && name) {
      const classNode = enclosingClass(node);
      if (classNode) {
        const family = this.classFieldFamily(classNode, name);
        if (family) return family;
        // A body-named field the class sets from something else (`this.stream = fs.createReadStream(…)`) is that thing.
        if (!isResponseName(name) && this.classMembers.members(classNode).assignments.some(([field]) => field === name)) return null;
      }
    }
    if (name && this.isStreamName(name)) return `member:${name}`;
    return null;
  }

  private familyOfCall(node: TSESTree.CallExpression): Family | null {
    if (this.isRequestCall(node)) return node;
    const callee = unwrap(node.callee);
    if (callee?.type === AST_NODE_TYPES.MemberExpression) {
      const method = propertyName(callee);
      if (callee.computed && isAsyncIteratorKey(callee.property)) return this.familyOf(callee.object);
      if (method && DERIVING_METHODS.has(method)) {
        const family = this.familyOf(callee.object);
        if (family || !WEB_STREAM_DERIVING_METHODS.has(method)) return family;
        return this.anyBodyFamily(callee.object) ?? (method === 'getReader' ? this.requestResultFamily(callee.object) : null);
      }
      if (method && NOT_A_STREAM_METHODS.has(method)) return null;
    }
    const fn = calledFunction(node, this);
    return (fn && this.returnedFamily(fn)) ?? this.familyOfArguments(node.arguments);
  }

  /**
   * `x.body` used as a stream (read through a reader, piped, iterated, cancelled): a fetch body, whatever `x` is
   * named or typed (`r.body.getReader()`). The family is `x`'s variable, or its access path.
   */
  anyBodyFamily(expression: Node): Family | null {
    const node = unwrap(expression);
    if (node?.type !== AST_NODE_TYPES.MemberExpression || node.computed || propertyName(node) !== 'body') return null;
    const object = unwrap(node.object);
    if (object?.type === AST_NODE_TYPES.Identifier) return this.variableOf(object) ?? `global:${object.name}`;
    const path = accessPath(object);
    return path === null ? null : `body:${path}`;
  }

  /** `stream` of `const { value: stream } = await getFromApi({ url, headers, … })`: what a request-shaped call returned. */
  private requestResultFamily(expression: Node): Family | null {
    const node = unwrap(expression);
    if (node?.type !== AST_NODE_TYPES.Identifier) return null;
    const def = this.variableOf(node)?.defs[0];
    if (def?.type !== 'Variable') return null;
    const init = unwrap(def.node.init);
    return init?.type === AST_NODE_TYPES.CallExpression && isRequestShaped(init) ? init : null;
  }

  /** The return statements of a function itself (see ownReturns), found once per function. */
  returnsOf(fn: Node): TSESTree.ReturnStatement[] {
    let list = this.returns.get(fn);
    if (!list) this.returns.set(fn, (list = ownReturns(fn, this.options.visitorKeys)));
    return list;
  }

  /** The response a local function returns (`async function openReader() { …; return stream.getReader(); }`). */
  private returnedFamily(fn: Node): Family | null {
    if (this.returnedFamilies.has(fn)) return this.returnedFamilies.get(fn)!;
    this.returnedFamilies.set(fn, null);
    let family: Family | null = null;
    // A generator's call gives its iterator, not what it returns.
    if (isFunction(fn) && !fn.generator) {
      if (fn.type === AST_NODE_TYPES.ArrowFunctionExpression && fn.expression) family = this.familyOf(fn.body);
      for (const statement of family ? [] : this.returnsOf(fn)) {
        family = this.familyOf(statement.argument);
        if (family) break;
      }
    }
    this.returnedFamilies.set(fn, family);
    return family;
  }

  /** A parser or iterator built over a response (`iterSSE(response)`, `new EventStream(res.body)`). */
  private familyOfArguments(args: readonly TSESTree.CallExpressionArgument[]): Family | null {
    for (const argument of args) {
      if (argument.type === AST_NODE_TYPES.SpreadElement || argument.type === AST_NODE_TYPES.ArrowFunctionExpression || argument.type === AST_NODE_TYPES.FunctionExpression) continue;
      const family = this.familyOf(argument);
      if (family) return family;
    }
    return null;
  }

  isRequestCall(node: TSESTree.CallExpression): boolean {
    const callee = unwrap(node.callee);
    const name = calleeName(node.callee);
    if (!name) return false;
    const nameWords = words(name);
    if (nameWords[nameWords.length - 1] === 'fetch') return true;
    if (asksForStream(node)) return true;
    if (callee?.type === AST_NODE_TYPES.MemberExpression) {
      const object = unwrap(callee.object);
      if (object?.type !== AST_NODE_TYPES.Identifier) return false;
      // `http.get(…)` returns the request, which owns the response's socket: destroying it closes the response.
      if ((object.name === 'http' || object.name === 'https') && NODE_HTTP_CALLS.has(name)) return true;
      return object.name === 'undici' && UNDICI_CALLS.has(name);
    }
    if (callee?.type === AST_NODE_TYPES.Identifier && UNDICI_CALLS.has(name)) {
      const variable = this.variableOf(callee);
      const def = variable?.defs[0];
      return def?.type === 'ImportBinding' && def.parent?.type === AST_NODE_TYPES.ImportDeclaration && def.parent.source.value === 'undici';
    }
    return false;
  }

  private familyOfVariable(variable: Variable): Family | null {
    if (this.variableFamilies.has(variable)) return this.variableFamilies.get(variable)!;
    this.variableFamilies.set(variable, null);
    const family = this.computeVariableFamily(variable);
    this.variableFamilies.set(variable, family);
    return family;
  }

  private computeVariableFamily(variable: Variable): Family | null {
    for (const def of variable.defs) {
      const name = def.name;
      // A binding's definition names an identifier (a string names only `declare module 'x'`).
      if (name.type !== AST_NODE_TYPES.Identifier) continue;
      if (hasStreamTypeAnnotation(name)) return variable;
      if (def.type === 'Variable') {
        const declarator = def.node;
        const family = declarator.id === name ? this.familyOfValue(variable, declarator.init) : this.familyFromPattern(name, declarator.init);
        if (family) return family;
      } else if (def.type === 'Parameter') {
        const family = this.familyOfCallbackParameter(def.node, name);
        if (family) return family;
      }
    }
    for (const reference of variable.references) {
      if (!reference.writeExpr || reference.init) continue;
      const target = reference.identifier;
      const family =
        target.parent?.type === AST_NODE_TYPES.AssignmentExpression && target.parent.left === target
          ? this.familyOfValue(variable, reference.writeExpr)
          : this.familyFromPattern(target, reference.writeExpr);
      if (family) return family;
    }
    if (isResponseName(variable.name)) return variable;
    // A body-named local is what it was set to; only a parameter's origin is unknown.
    if (this.options.bodyNames && isBodyName(variable.name) && variable.defs.every((def) => def.type === 'Parameter')) return variable;
    const def = variable.defs[0];
    if (def && this.options.typeOracle?.isResponseStream(def.name) === true) return variable;
    return null;
  }

  /**
   * The family of a value put in a variable. A constructed object whose `.signal` went into a request controls that
   * request (an `AbortController`, also one of an injected or minified class: `const control = new AbortControllerImpl()`).
   */
  private familyOfValue(variable: Variable, value: Node | null | undefined): Family | null {
    if (unwrap(value)?.type === AST_NODE_TYPES.NewExpression) return this.requestUsingSignalOf(variable) ?? this.familyOf(value);
    return this.familyOf(value);
  }

  /** `const { body } = response` takes the response's body; array patterns (`tee()` branches) do not. */
  private familyFromPattern(name: Node, init: Node | null | undefined): Family | null {
    const property = name.parent;
    if (property?.type !== AST_NODE_TYPES.Property || property.value !== name || property.parent?.type !== AST_NODE_TYPES.ObjectPattern) return null;
    const key = property.key.type === AST_NODE_TYPES.Identifier ? property.key.name : null;
    if (key !== 'body' && key !== 'readable') return null;
    return this.familyOf(init);
  }

  /** `res` of `http.get(url, res => …)` and of `fetch(url).then(res => …)`. */
  private familyOfCallbackParameter(fn: Node, name: TSESTree.Identifier): Family | null {
    if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) return null;
    if (fn.params[0] !== name) return null;
    const call = fn.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn)) return null;
    const callee = unwrap(call.callee);
    if (callee?.type !== AST_NODE_TYPES.MemberExpression) return null;
    const method = propertyName(callee);
    const object = unwrap(callee.object);
    if (method === 'then') return this.familyOf(callee.object);
    if (method && NODE_HTTP_CALLS.has(method) && object?.type === AST_NODE_TYPES.Identifier && (object.name === 'http' || object.name === 'https')) {
      return call;
    }
    return null;
  }

  /** An AbortController belongs to the response whose request took its signal. */
  private requestUsingSignalOf(variable: Variable): Family | null {
    for (const reference of variable.references) {
      const member = reference.identifier.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier || propertyName(member) !== 'signal') continue;
      const request = this.requestReceiving(member, 3);
      if (request) return this.requestFamily(request);
    }
    return null;
  }

  /** The response of a request found by where a signal went: a request-shaped call of a local helper is that response. */
  private requestFamily(request: TSESTree.CallExpression): Family | null {
    return this.familyOf(request) ?? (isRequestShaped(request) ? request : null);
  }

  private requestReceiving(start: Node, depth: number): TSESTree.CallExpression | null {
    let node: Node = start;
    for (let parent = node.parent; parent; node = parent, parent = parent.parent) {
      switch (parent.type) {
        case AST_NODE_TYPES.Property:
        case AST_NODE_TYPES.ObjectExpression:
        case AST_NODE_TYPES.ArrayExpression:
        case AST_NODE_TYPES.SpreadElement:
        case AST_NODE_TYPES.LogicalExpression:
        case AST_NODE_TYPES.ConditionalExpression:
        case AST_NODE_TYPES.AwaitExpression:
        case AST_NODE_TYPES.TSAsExpression:
          continue;
        case AST_NODE_TYPES.CallExpression:
        case AST_NODE_TYPES.NewExpression:
          if (!parent.arguments.some((argument) => argument === node)) return null;
          if (parent.type === AST_NODE_TYPES.CallExpression && (this.isRequestCall(parent) || isRequestShaped(parent))) return parent;
          continue;
        case AST_NODE_TYPES.VariableDeclarator: {
          if (depth === 0 || parent.id.type !== AST_NODE_TYPES.Identifier || parent.init !== node) return null;
          const variable = this.variableOf(parent.id);
          for (const reference of variable?.references ?? []) {
            if (reference.init) continue;
            const request = this.requestReceiving(reference.identifier, depth - 1);
            if (request) return request;
          }
          return null;
        }
        default:
          return null;
      }
    }
    return null;
  }

  /** The family of `this.<field>` in a class: its type annotation or the values assigned to it (each field resolved on demand). */
  private classFieldFamily(classNode: Node, field: string): Family | null {
    let fields = this.classFields.get(classNode);
    if (!fields) this.classFields.set(classNode, (fields = new Map<string, Family | null>()));
    if (fields.has(field)) return fields.get(field)!;
    fields.set(field, null);
    const family = this.computeClassField(this.classMembers.members(classNode), field);
    fields.set(field, family);
    return family;
  }

  private computeClassField(members: ClassMembers, field: string): Family | null {
    for (const definition of members.definitions) {
      if (keyName(definition.key) !== field) continue;
      if (hasStreamTypeAnnotation(definition)) return `field:${field}`;
      const family = definition.value ? this.familyOfFieldValue(members, field, definition.value) : null;
      if (family) return family;
    }
    for (const { parameter } of members.parameters) {
      if (parameter.type !== AST_NODE_TYPES.Identifier || parameter.name !== field) continue;
      if (hasStreamTypeAnnotation(parameter) || this.isStreamName(field)) return `field:${field}`;
    }
    for (const [name, value] of members.assignments) {
      if (name !== field) continue;
      const family = this.familyOfFieldValue(members, field, value);
      if (family) return family;
    }
    return null;
  }

  private familyOfFieldValue(members: ClassMembers, field: string, value: Node): Family | null {
    if (unwrap(value)?.type === AST_NODE_TYPES.NewExpression) return this.requestUsingFieldSignal(members.signalUses, field) ?? this.familyOf(value);
    return this.familyOf(value);
  }

  private requestUsingFieldSignal(signalUses: ClassMembers['signalUses'], field: string): Family | null {
    for (const [name, member] of signalUses) {
      if (name !== field) continue;
      const request = this.requestReceiving(member, 3);
      if (request) return this.requestFamily(request);
    }
    return null;
  }

}

/** An axios-style request whose options ask for the body as a stream: `{ responseType: 'stream' }`. */
function asksForStream(call: TSESTree.CallExpression): boolean {
  return call.arguments.some(
    (argument) =>
      argument.type === AST_NODE_TYPES.ObjectExpression &&
      argument.properties.some(
        (property) =>
          property.type === AST_NODE_TYPES.Property &&
          !property.computed &&
          property.key.type === AST_NODE_TYPES.Identifier &&
          property.key.name === 'responseType' &&
          property.value.type === AST_NODE_TYPES.Literal &&
          property.value.value === 'stream',
      ),
  );
}

/** The loop body hands what it reads to a decoder (`decoder.decode(chunk)`, `this.decodeChunk(chunk)`): it reads bytes. */
function decodesChunks(loop: Node, visitorKeys: Record<string, readonly string[] | undefined>): boolean {
  // An async loop: `for await`, or the `for` of its downleveled form.
  if (loop.type !== AST_NODE_TYPES.ForOfStatement && loop.type !== AST_NODE_TYPES.ForStatement) return false;
  let decodes = false;
  walk(loop.body, visitorKeys, (node) => {
    if (decodes || isFunction(node)) return false;
    const name = node.type === AST_NODE_TYPES.CallExpression ? calleeName(node.callee) : null;
    if (name && words(name).includes('decode')) decodes = true;
  });
  return decodes;
}

/** A call that takes a request's options (`{ url, headers, signal, … }`): a local request helper (`getFromApi`, `connect`). */
export function isRequestShaped(call: TSESTree.CallExpression): boolean {
  return call.arguments.some((argument) => {
    if (argument.type !== AST_NODE_TYPES.ObjectExpression) return false;
    const keys = argument.properties.map((property) => (property.type === AST_NODE_TYPES.Property && !property.computed && property.key.type === AST_NODE_TYPES.Identifier ? property.key.name : null));
    return keys.includes('url') && keys.some((key) => key !== null && REQUEST_OPTION_KEYS.has(key));
  });
}

/** `this.x.y` / `a.b` as text, for a family known only by where it is kept. */
function accessPath(node: Node | null): string | null {
  if (node?.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (node?.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node?.type !== AST_NODE_TYPES.MemberExpression || node.computed) return null;
  const object = accessPath(unwrap(node.object));
  const name = propertyName(node);
  return object === null || name === null ? null : `${object}.${name}`;
}

/** A family that is the request call itself (`axios.get(url, { responseType: 'stream' })`). */
function isCallFamily(family: Family): family is TSESTree.CallExpression {
  return typeof family === 'object' && 'type' in family && family.type === AST_NODE_TYPES.CallExpression;
}

/** The name of a class member's key: `body` for `body` and for `#body`. */
function keyName(key: TSESTree.PropertyDefinition['key']): string | undefined {
  return key.type === AST_NODE_TYPES.Identifier || key.type === AST_NODE_TYPES.PrivateIdentifier ? key.name : undefined;
}

function hasStreamTypeAnnotation(node: { typeAnnotation?: TSESTree.TSTypeAnnotation | undefined }): boolean {
  const annotation = node.typeAnnotation?.typeAnnotation;
  return annotation ? typeNamesStream(annotation) : false;
}

function typeNamesStream(type: TSESTree.TypeNode): boolean {
  if (type.type === AST_NODE_TYPES.TSUnionType) return type.types.some(typeNamesStream);
  if (type.type !== AST_NODE_TYPES.TSTypeReference) return false;
  const name = type.typeName.type === AST_NODE_TYPES.Identifier ? type.typeName.name : type.typeName.type === AST_NODE_TYPES.TSQualifiedName ? type.typeName.right.name : null;
  return name !== null && STREAM_TYPE_NAMES.has(name);
}

