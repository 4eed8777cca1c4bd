import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

export type Node = TSESTree.Node;

/** Strips wrappers that do not change which value an expression denotes. */
export function unwrap(node: Node | null | undefined): Node | null {
  let current = node ?? null;
  while (current) {
    switch (current.type) {
      case AST_NODE_TYPES.AwaitExpression:
        current = current.argument;
        continue;
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        current = current.expression;
        continue;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        continue;
      case AST_NODE_TYPES.SequenceExpression:
        current = current.expressions[current.expressions.length - 1] ?? null;
        continue;
      case AST_NODE_TYPES.YieldExpression: {
        // Downleveled `await`: `yield __await(x)` in an async generator, `yield x` in an `__awaiter` body.
        const awaited = downleveledAwaitArgument(current);
        if (!awaited) return current;
        current = awaited;
        continue;
      }
      default:
        return current;
    }
  }
  return null;
}

const DOWNLEVELED_ASYNC_WRAPPERS = new Set(['__awaiter', '__asyncGenerator']);

/**
 * The generator function that TypeScript's downleveling hands to `__awaiter(this, …, function* () {…})` or
 * `__asyncGenerator(this, arguments, function* name() {…})`: it runs as the body of the method it is written in.
 */
export function isDownleveledAsyncBody(fn: Node): boolean {
  if (fn.type !== AST_NODE_TYPES.FunctionExpression || !fn.generator) return false;
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn)) return false;
  const name = calleeName(call.callee);
  return name !== null && DOWNLEVELED_ASYNC_WRAPPERS.has(name);
}

function downleveledAwaitArgument(node: TSESTree.YieldExpression): Node | null {
  if (node.delegate || !node.argument) return null;
  const argument = node.argument;
  if (argument.type === AST_NODE_TYPES.CallExpression && calleeName(argument.callee) === '__await') {
    const value = argument.arguments[0];
    return value && value.type !== AST_NODE_TYPES.SpreadElement ? value : null;
  }
  for (let current: Node | undefined = node.parent; current; current = current.parent) {
    if (isFunction(current)) {
      const call = current.parent;
      return isDownleveledAsyncBody(current) && call?.type === AST_NODE_TYPES.CallExpression && calleeName(call.callee) === '__awaiter' ? argument : null;
    }
  }
  return null;
}

export function propertyName(node: TSESTree.MemberExpression): string | null {
  if (!node.computed && node.property.type === AST_NODE_TYPES.Identifier) return node.property.name;
  if (node.property.type === AST_NODE_TYPES.Literal && typeof node.property.value === 'string') return node.property.value;
  if (node.property.type === AST_NODE_TYPES.PrivateIdentifier) return node.property.name;
  return null;
}

/** `Symbol.asyncIterator` as a computed key. */
export function isAsyncIteratorKey(node: Node): boolean {
  return (
    node.type === AST_NODE_TYPES.MemberExpression &&
    node.object.type === AST_NODE_TYPES.Identifier &&
    node.object.name === 'Symbol' &&
    propertyName(node) === 'asyncIterator'
  );
}

/** The name a callee is called by: `fetch`, `this.fetchImpl` -> `fetchImpl`. */
export function calleeName(callee: Node): string | null {
  const target = unwrap(callee);
  if (!target) return null;
  if (target.type === AST_NODE_TYPES.Identifier) return target.name;
  if (target.type === AST_NODE_TYPES.MemberExpression) return propertyName(target);
  return null;
}

export function isFunction(node: Node): node is TSESTree.FunctionLike & (TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression) {
  return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression;
}

export function isLoop(node: Node): node is TSESTree.WhileStatement | TSESTree.DoWhileStatement | TSESTree.ForStatement | TSESTree.ForInStatement | TSESTree.ForOfStatement {
  return (
    node.type === AST_NODE_TYPES.WhileStatement ||
    node.type === AST_NODE_TYPES.DoWhileStatement ||
    node.type === AST_NODE_TYPES.ForStatement ||
    node.type === AST_NODE_TYPES.ForInStatement ||
    node.type === AST_NODE_TYPES.ForOfStatement
  );
}

/** What a `for await` iterates: `x` of `for await (… of x)`, or the `__asyncValues(x)` argument of its downleveled form. */
export function asyncLoopIterable(loop: Node): Node | null {
  if (loop.type === AST_NODE_TYPES.ForOfStatement) return loop.await ? loop.right : null;
  if (loop.type !== AST_NODE_TYPES.ForStatement || loop.init?.type !== AST_NODE_TYPES.VariableDeclaration) return null;
  for (const declarator of loop.init.declarations) {
    const init = unwrap(declarator.init);
    if (init?.type === AST_NODE_TYPES.CallExpression && calleeName(init.callee) === '__asyncValues') {
      const argument = init.arguments[0];
      return argument && argument.type !== AST_NODE_TYPES.SpreadElement ? argument : null;
    }
  }
  return null;
}

/** The key name of a method or property that holds `fn`, e.g. `return` for `{ return: async () => {} }`. */
export function holderKeyName(fn: Node): string | null {
  const parent = fn.parent;
  if (!parent) return null;
  if ((parent.type === AST_NODE_TYPES.Property || parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.PropertyDefinition) && parent.value === fn) {
    const key = parent.key;
    if (!parent.computed && key.type === AST_NODE_TYPES.Identifier) return key.name;
    if (key.type === AST_NODE_TYPES.Literal && typeof key.value === 'string') return key.value;
    if (key.type === AST_NODE_TYPES.PrivateIdentifier) return key.name;
  }
  return null;
}

/** A child found under a visitor key: a node, not a value of another kind (the visitor keys name both). */
function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'type' in value;
}

/** Visits every node below `root` (own traversal; used for small sub-trees such as one class body); `visit` returns false to skip a node's children. */
export function walk(root: Node, visitorKeys: Record<string, readonly string[] | undefined>, visit: (node: Node) => boolean | void): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visit(node) === false) continue;
    for (const key of visitorKeys[node.type] ?? []) {
      const child: unknown = Reflect.get(node, key);
      if (Array.isArray(child)) {
        for (const item of child) if (isNode(item)) stack.push(item);
      } else if (isNode(child)) {
        stack.push(child);
      }
    }
  }
}

/**
 * The function an offset is in: the innermost function whose range holds it, where the generator of a downleveled
 * `async` function (`__awaiter(this, …, function* () {…})`) counts as the function it is written in (it runs as that
 * function's body), and as itself only where no function encloses it. One descent down the nodes that hold the offset,
 * a search by halves in long child lists (ESLint's `getNodeByRangeIndex` walks the whole tree).
 */
export function innermostFunctionAt(root: Node, offset: number, visitorKeys: Record<string, readonly string[] | undefined>): Node | null {
  let node: Node = root;
  let fn: Node | null = null;
  descent: for (;;) {
    if (isFunction(node)) fn = isDownleveledAsyncBody(node) ? (fn ?? node) : node;
    for (const key of visitorKeys[node.type] ?? []) {
      const child: unknown = Reflect.get(node, key);
      const next = Array.isArray(child) ? childAt(child, offset) : isNode(child) && holds(child, offset) ? child : null;
      if (next) {
        node = next;
        continue descent;
      }
    }
    return fn;
  }
}

function holds(node: Node, offset: number): boolean {
  return node.range[0] <= offset && offset < node.range[1];
}

/** The item of a child list that holds `offset` (the list is in source order): searched by halves when it is long. */
function childAt(list: readonly unknown[], offset: number): Node | null {
  const linear = (): Node | null => {
    for (const item of list) if (isNode(item) && holds(item, offset)) return item;
    return null;
  };
  if (list.length <= 16) return linear();
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const item: unknown = list[middle];
    // A hole (`[a, , b]`) has no range: the list is searched from its start instead.
    if (!isNode(item)) return linear();
    if (offset < item.range[0]) high = middle - 1;
    else if (offset >= item.range[1]) low = middle + 1;
    else return item;
  }
  return null;
}
