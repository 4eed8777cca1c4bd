import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { asyncLoopIterable, innermostFunctionAt, isFunction, propertyName, unwrap, walk, type Node } from './ast.js';

// Closes a function of the module makes on behalf of its caller: `closeStream(status, controller)` on a completion
// branch, whose body aborts the controller (docs/rules/no-early-stream-close.md, "A close in a called function").
// What is here is syntax: which functions hold a close and how they are called, found before the traversal so that the
// code paths calling them are tracked, and which parameter a close closes. What a call of one closes: helper-closes.ts.

type VisitorKeys = Record<string, readonly string[] | undefined>;

/** How a function is called by name: `f(…)` (a declaration, a `const f = () => …`) or `this.m(…)` (a method). */
export interface CallNames {
  plain: Set<string>;
  methods: Set<string>;
}

/** Helpers followed from a call: a helper that calls a helper is followed too, this many levels deep. */
const HELPER_DEPTH = 2;

/** The names `fn` is called by: its declaration's or variable's name, or the method or property key that holds it. */
export function namesOf(fn: Node, into: CallNames): void {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) {
    if (fn.id) into.plain.add(fn.id.name);
    return;
  }
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === fn && parent.id.type === AST_NODE_TYPES.Identifier) {
    into.plain.add(parent.id.name);
  } else if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === fn) {
    if (parent.left.type === AST_NODE_TYPES.Identifier) into.plain.add(parent.left.name);
    else if (parent.left.type === AST_NODE_TYPES.MemberExpression) {
      const name = propertyName(parent.left);
      if (name) into.methods.add(name);
    }
  } else if ((parent?.type === AST_NODE_TYPES.MethodDefinition || parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.PropertyDefinition) && parent.value === fn) {
    const key = parent.key;
    if (!parent.computed && (key.type === AST_NODE_TYPES.Identifier || key.type === AST_NODE_TYPES.PrivateIdentifier)) into.methods.add(key.name);
  }
}

/**
 * The pre-filter's candidate offsets with the calls of the file's helpers added: the calls, by name, of the functions that
 * hold one of the explicit closes among the candidates (a `.` or `[` before the method's name), and of those that call
 * one. The code paths around them may reach the close through the call. `names`: what those calls are called by, null
 * where the file has none.
 */
export function withHelperCalls(candidates: number[], text: string, ast: Node, visitorKeys: VisitorKeys): { offsets: number[]; names: CallNames | null } {
  const explicitOffsets = candidates.filter((offset) => text[offset] === '.' || text[offset] === '[');
  if (explicitOffsets.length === 0) return { offsets: candidates, names: null };
  const helpers = helperCallOffsets(text, ast, visitorKeys, explicitOffsets);
  if (helpers.offsets.length === 0) return { offsets: candidates, names: null };
  return { offsets: mergeSorted(candidates, helpers.offsets), names: helpers.names };
}

/** Two ascending lists of offsets as one. */
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] <= b[j])) merged.push(a[i++]);
    else merged.push(b[j++]);
  }
  return merged;
}

/**
 * Where a file calls, by name, a function that holds one of the explicit closes at `closeOffsets` (and, a level
 * deeper, a function that calls one of those): the code paths around these calls may reach the close through them, so
 * the pre-filter keeps them. Returns the call offsets, ascending, and the names looked for.
 */
export function helperCallOffsets(text: string, ast: Node, visitorKeys: VisitorKeys, closeOffsets: readonly number[]): { offsets: number[]; names: CallNames } {
  const names: CallNames = { plain: new Set(), methods: new Set() };
  const found = new Set<number>();
  let calls: NamedCall[] | null = null;
  let frontier = closeOffsets;
  for (let level = 0; level < HELPER_DEPTH && frontier.length > 0; level++) {
    const levelNames: CallNames = { plain: new Set(), methods: new Set() };
    const seen = new Set<Node>();
    for (const offset of frontier) {
      const fn = innermostFunctionAt(ast, offset, visitorKeys);
      if (!fn || seen.has(fn)) continue;
      seen.add(fn);
      namesOf(fn, levelNames);
    }
    for (const name of levelNames.plain) if (names.plain.has(name)) levelNames.plain.delete(name);
    for (const name of levelNames.methods) if (names.methods.has(name)) levelNames.methods.delete(name);
    if (levelNames.plain.size === 0 && levelNames.methods.size === 0) break;
    // One pass over the file's parentheses finds every `name (`, and each level looks its names up in it: a regular
    // expression alternating the names (worse, one starting with a lookbehind) is tried at every offset of the file, and
    // an indexOf per name scans the file once per name.
    calls ??= namedCalls(text);
    const lengths = new Set([...levelNames.plain, ...levelNames.methods].map((name) => name.length));
    const next: number[] = [];
    for (const { at, end } of calls) {
      if (!lengths.has(end - at)) continue;
      const name = text.slice(at, end);
      const offset = levelNames.plain.has(name) && startsPlainCall(text, at) ? at : levelNames.methods.has(name) ? thisBefore(text, at) : null;
      if (offset !== null && !found.has(offset)) {
        found.add(offset);
        next.push(offset);
      }
    }
    for (const name of levelNames.plain) names.plain.add(name);
    for (const name of levelNames.methods) names.methods.add(name);
    frontier = next;
  }
  return { offsets: [...found].sort((a, b) => a - b), names };
}

interface NamedCall {
  /** The offsets of the name's start and end. */
  at: number;
  end: number;
}

/** Every name followed by `(` (spaces between allowed), in the order of the file: one pass over its parentheses. */
function namedCalls(text: string): NamedCall[] {
  const calls: NamedCall[] = [];
  for (let paren = text.indexOf('('); paren !== -1; paren = text.indexOf('(', paren + 1)) {
    let end = paren;
    while (end > 0 && isSpace(text, end - 1)) end--;
    let start = end;
    // A character past ASCII that is no space is taken as part of the name (JavaScript allows letters of any script).
    while (start > 0 && (isWordCode(text.charCodeAt(start - 1)) || (text.charCodeAt(start - 1) > 0x7f && !isSpace(text, start - 1)))) start--;
    if (start < end) calls.push({ at: start, end });
  }
  return calls;
}

/** The offset of `this` in `this.m` where the method name starts at `index` (spaces around the dot allowed), else null. */
function thisBefore(text: string, index: number): number | null {
  let at = index;
  while (at > 0 && isSpace(text, at - 1)) at--;
  if (text.charCodeAt(at - 1) !== 0x2e /* . */) return null;
  at--;
  while (at > 0 && isSpace(text, at - 1)) at--;
  const start = at - 4;
  if (start < 0 || !text.startsWith('this', start) || (start > 0 && isWordCode(text.charCodeAt(start - 1)))) return null;
  return start;
}

function isSpace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code > 0x7f && /\s/.test(text[index]));
}

/** Whether a name matched at `index` starts a call of its own: not the tail of a longer name or of `.f(`, nor `function f(`. */
function startsPlainCall(text: string, index: number): boolean {
  const before = index > 0 ? text.charCodeAt(index - 1) : -1;
  if (before !== -1 && (isWordCode(before) || before === 0x2e /* . */)) return false;
  let end = index;
  while (end > 0 && isSpace(text, end - 1)) end--;
  const declared = end < index && end >= 8 && text.startsWith('function', end - 8) && (end === 8 || !isWordCode(text.charCodeAt(end - 9)));
  return !declared;
}

/** An ASCII character of a JavaScript name (`\w` or `$`). */
function isWordCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x24;
}

/** `f(…)` or `this.m(…)` of a name in `names`: a call that may run a helper holding a close. */
export function callsHelperName(call: TSESTree.CallExpression, names: CallNames): boolean {
  const callee = unwrap(call.callee);
  if (callee?.type === AST_NODE_TYPES.Identifier) return names.plain.has(callee.name);
  if (callee?.type !== AST_NODE_TYPES.MemberExpression || unwrap(callee.object)?.type !== AST_NODE_TYPES.ThisExpression) return false;
  const name = propertyName(callee);
  return name !== null && names.methods.has(name);
}

/** The index of the parameter of `fn` that `receiver` names (`controller` of `function stop(status, controller)`), else null. */
export function parameterIndex(fn: Node, receiver: Node, variableOf: (identifier: TSESTree.Identifier) => TSESLint.Scope.Variable | null): number | null {
  const target = unwrap(receiver);
  if (target?.type !== AST_NODE_TYPES.Identifier || !isFunction(fn)) return null;
  const def = variableOf(target)?.defs.find((definition) => definition.type === 'Parameter' && definition.node === fn);
  if (!def) return null;
  const index = fn.params.findIndex((param) => param === def.name || (param.type === AST_NODE_TYPES.AssignmentPattern && param.left === def.name));
  return index === -1 ? null : index;
}

/**
 * Whether `fn` reads what its parameter `name` holds (`name.read()`, `name.next()`, `for await (… of name)`): a function
 * that reads a stream and then closes it (a drain of its own) decides by its own reading, not as a close of its caller.
 */
export function readsParameter(fn: Node, name: string, visitorKeys: VisitorKeys): boolean {
  let reads = false;
  walk(fn, visitorKeys, (node) => {
    if (reads) return false;
    if (node !== fn && isFunction(node)) return false;
    const iterated = asyncLoopIterable(node);
    if (iterated && namesIdentifier(iterated, name)) reads = true;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      if (callee?.type === AST_NODE_TYPES.MemberExpression && (propertyName(callee) === 'read' || propertyName(callee) === 'next') && namesIdentifier(callee.object, name)) reads = true;
    }
  });
  return reads;
}

function namesIdentifier(node: Node, name: string): boolean {
  const target = unwrap(node);
  return target?.type === AST_NODE_TYPES.Identifier && target.name === name;
}

/** The name a call's callee is written with (`closeStream`, `this.stop`), for the message. */
export function calleeText(call: TSESTree.CallExpression): string {
  const callee = unwrap(call.callee);
  if (callee?.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee?.type === AST_NODE_TYPES.MemberExpression) return `this.${propertyName(callee) ?? ''}`;
  return '';
}
