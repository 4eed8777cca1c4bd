import type { TSESTree, TSESLint } from '@typescript-eslint/utils';
import { asyncLoopIterable, calleeName, isAsyncIteratorKey, isFunction, propertyName, unwrap, walk, type Node } from './ast.js';
import type { Family } from '../core/effect.js';
import type { TypeOracle } from './types.js';
import { ClassMemberIndex, enclosingClass, type ClassMembers } from './class-members.js';
import { calledFunction, ownReturns } from './function-results.js';
import { variableNamed } from './scope.js';
import { isAbortControllerName, isBodyName, isResponseName, words } from './words.js';
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
  /** Fed by the recorder's traversal (recorder.ts) when `collectClassMembers` is true; walks each class on demand otherwise. */
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

  /**
   * The response a close `receiver.method()` closes: `terminate()` through a TransformStream's controller, `abort()` also
   * through an AbortController this file does not show the origin of (see unseenControllerFamily).
   */
  closeFamilyFor(receiver: Node, method: string): Family | null {
    if (method === 'terminate') return this.transformControllerFamily(receiver);
    return this.closeFamily(receiver) ?? (method === 'abort' ? this.unseenControllerFamily(receiver) : null);
  }

  /**
   * An AbortController, by its name (`abortController`, `abort_controller`), whose origin this file does not show: a
   * parameter, a field of another object (`that.abort_controller`), a field of `this` the class here never sets. Its
   * signal went into a request elsewhere (a controller made in sight belongs to a response only where its signal is seen
   * going into one). Such a family counts as drained wherever a response reached EOF since the terminal event.
   */
  unseenControllerFamily(receiver: Node): Family | null {
    const node = unwrap(receiver);
    let name: string | null = null;
    if (node?.type === AST_NODE_TYPES.Identifier) {
      const variable = this.variableOf(node);
      if (variable && !variable.defs.every((def) => def.type === 'Parameter')) return null;
      name = node.name;
    } else if (node?.type === AST_NODE_TYPES.MemberExpression && !node.computed) {
      name = propertyName(node);
      const classNode = unwrap(node.object)?.type === AST_NODE_TYPES.ThisExpression ? enclosingClass(node) : null;
      if (classNode && name !== null && this.classMembers.members(classNode).assignments.some(([field]) => field === name)) return null;
    }
    if (name === null || !isAbortControllerName(name)) return null;
    return `${UNSEEN_CONTROLLER}${(node && accessPath(node)) ?? name}`;
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
        return (
          this.anyBodyFamily(callee.object) ??
          (method === 'getReader' ? this.requestResultFamily(callee.object) : null) ??
          (method === 'pipeThrough' && isTextDecoderStream(node.arguments[0]) ? this.decodedSourceFamily(callee.object) : null)
        );
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

  /**
   * A stream of unknown origin piped through a `TextDecoderStream`: bytes decoded as text, a body (`readable` of
   * `function parse(readable) { return readable.pipeThrough(new TextDecoderStream())… }`, shipped JavaScript without the
   * types its TypeScript source had). Only a parameter, or a field of one or of `this`: a local the code sets is what it
   * was set to, and a parameter every call of the module gives a stream the code built itself is that stream.
   */
  private decodedSourceFamily(expression: Node): Family | null {
    const node = unwrap(expression);
    if (node?.type === AST_NODE_TYPES.Identifier) {
      const variable = this.variableOf(node);
      if (!variable || variable.defs.length === 0 || !variable.defs.every((def) => def.type === 'Parameter')) return null;
      return this.isSelfBuiltVariable(variable) ? null : variable;
    }
    if (node?.type !== AST_NODE_TYPES.MemberExpression || node.computed) return null;
    let root: Node | null = node;
    while (root?.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
    const rootVariable = root?.type === AST_NODE_TYPES.Identifier ? this.variableOf(root) : null;
    const fromParameter = rootVariable !== null && rootVariable.defs.length > 0 && rootVariable.defs.every((def) => def.type === 'Parameter');
    if (root?.type !== AST_NODE_TYPES.ThisExpression && !fromParameter) return null;
    const path = accessPath(node);
    return path === null ? null : `decoded:${path}`;
  }

  /**
   * A stream the code built itself (`new ReadableStream(…)` whose source forwards no cancel to another stream,
   * `ReadableStream.from(…)`, a reader or pipe of one, what a local function returns when it always returns one): in
   * memory, or fed by a producer of its own. Closing it closes nothing on the wire, whatever its name or type says.
   */
  isSelfBuilt(expression: Node | null | undefined, seen: Set<Variable> = new Set()): boolean {
    const node = unwrap(expression);
    switch (node?.type) {
      case AST_NODE_TYPES.NewExpression:
        return calleeName(node.callee) === 'ReadableStream' && !forwardsCancel(node.arguments[0]);
      case AST_NODE_TYPES.CallExpression: {
        const callee = unwrap(node.callee);
        if (callee?.type === AST_NODE_TYPES.MemberExpression) {
          const method = propertyName(callee);
          const object = unwrap(callee.object);
          if (method === 'from' && object?.type === AST_NODE_TYPES.Identifier && (object.name === 'ReadableStream' || object.name === 'Readable')) return true;
          if (method && SELF_BUILT_DERIVATIONS.has(method)) return this.isSelfBuilt(callee.object, seen);
        }
        const fn = calledFunction(node, this);
        if (!fn || !isFunction(fn) || fn.generator) return false;
        if (fn.type === AST_NODE_TYPES.ArrowFunctionExpression && fn.expression) return this.isSelfBuilt(fn.body, seen);
        const returns = this.returnsOf(fn);
        return returns.length > 0 && returns.every((statement) => this.isSelfBuilt(statement.argument, seen));
      }
      case AST_NODE_TYPES.Identifier: {
        const variable = this.variableOf(node);
        if (!variable || seen.has(variable)) return false;
        seen.add(variable);
        return this.isSelfBuiltVariable(variable, seen);
      }
      default:
        return false;
    }
  }

  /**
   * Every value the variable holds is built by the code itself: each definition and assignment, or, for a parameter of
   * a function of the module that is only ever called here, the argument of every call.
   */
  private isSelfBuiltVariable(variable: Variable, seen: Set<Variable> = new Set([variable])): boolean {
    if (variable.defs.length === 0) return false;
    if (variable.defs.every((def) => def.type === 'Parameter')) return this.parameterGetsSelfBuilt(variable, seen);
    for (const def of variable.defs) {
      if (def.type !== 'Variable' || def.node.id !== def.name || !this.isSelfBuilt(def.node.init, seen)) return false;
    }
    for (const reference of variable.references) {
      if (!reference.isWrite() || reference.init) continue;
      const target = reference.identifier;
      if (target.parent?.type !== AST_NODE_TYPES.AssignmentExpression || target.parent.left !== target || !this.isSelfBuilt(reference.writeExpr, seen)) return false;
    }
    return true;
  }

  /** A parameter of a function the module only calls itself (never exports or hands on), given a self-built stream by every call. */
  private parameterGetsSelfBuilt(variable: Variable, seen: Set<Variable>): boolean {
    const def = variable.defs[0];
    const fn: Node = def.node;
    if (!isFunction(fn)) return false;
    const index = fn.params.findIndex((param) => param === def.name || (param.type === AST_NODE_TYPES.AssignmentPattern && param.left === def.name));
    if (index === -1) return false;
    const nameNode = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id : fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn && fn.parent.id.type === AST_NODE_TYPES.Identifier ? fn.parent.id : null;
    const fnVariable = nameNode ? this.variableOf(nameNode) : null;
    if (!fnVariable || isExported(fn)) return false;
    const calls = fnVariable.references.filter((reference) => !reference.init);
    if (calls.length === 0) return false;
    return calls.every((reference) => {
      const call = reference.identifier.parent;
      if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) return false;
      const argument = call.arguments[index];
      return argument !== undefined && argument.type !== AST_NODE_TYPES.SpreadElement && this.isSelfBuilt(argument, seen);
    });
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
    let family = this.computeVariableFamily(variable);
    // A stream the code built itself is no response, whatever its name, annotation or type.
    if (family !== null && this.isSelfBuiltVariable(variable)) family = null;
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

/** The family prefix of an AbortController of unseen origin (StreamResolver#unseenControllerFamily). */
export const UNSEEN_CONTROLLER = 'unseen-controller:';

export function isUnseenController(family: Family): boolean {
  return typeof family === 'string' && family.startsWith(UNSEEN_CONTROLLER);
}

/** Derivations that keep a self-built stream self-built (its reader, a pipe of it). */
const SELF_BUILT_DERIVATIONS = new Set(['getReader', 'pipeThrough', 'values', 'getIterator']);

/** `new TextDecoderStream(…)`. */
function isTextDecoderStream(node: Node | undefined): boolean {
  const value = unwrap(node);
  return value?.type === AST_NODE_TYPES.NewExpression && calleeName(value.callee) === 'TextDecoderStream';
}

/**
 * An underlying source whose `cancel` closes something (`cancel: (reason) => upstream.cancel(reason)`): cancelling the
 * stream built on it cancels that upstream too. A source not written as an object literal may do anything.
 */
function forwardsCancel(source: Node | undefined): boolean {
  const object = unwrap(source);
  if (!object) return false;
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return true;
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed || property.key.type !== AST_NODE_TYPES.Identifier || property.key.name !== 'cancel') continue;
    const value = unwrap(property.value);
    if (!value || !isFunction(value)) return true;
    let closes = false;
    walkCalls(value.body, (call) => {
      const callee = unwrap(call.callee);
      if (callee?.type === AST_NODE_TYPES.MemberExpression && FORWARDED_CLOSES.has(propertyName(callee) ?? '')) closes = true;
    });
    if (closes) return true;
  }
  return false;
}

const FORWARDED_CLOSES = new Set(['cancel', 'abort', 'destroy', 'return', 'close']);

function walkCalls(root: Node, each: (call: TSESTree.CallExpression) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...(value as unknown[]));
      continue;
    }
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') continue;
    const node = value as Node;
    if (node.type === AST_NODE_TYPES.CallExpression) each(node);
    for (const [key, child] of Object.entries(node)) if (key !== 'parent' && typeof child === 'object' && child !== null) stack.push(child);
  }
}

/** `export function f`, `export const f = () => …`, `export default function`: called from elsewhere too. */
function isExported(fn: Node): boolean {
  for (let current = fn.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ExportNamedDeclaration || current.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
    if (current.type !== AST_NODE_TYPES.VariableDeclarator && current.type !== AST_NODE_TYPES.VariableDeclaration) return false;
  }
  return false;
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

