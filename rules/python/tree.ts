import type { Node } from './parser.js';

// Helpers over tree-sitter's Python tree that know no flow: children, calls, bindings, statements.

const NESTED_SCOPES = new Set(['function_definition', 'class_definition', 'decorated_definition', 'lambda']);

/** A name bound in a function body: by an assignment (`=`, `:=`) or a `with … as` (`asyncWith`: an `async with`). */
export interface Binding {
  target: Node;
  value: Node;
  asyncWith: boolean;
}

/** The named children of a node, comments left out. */
export function named(node: Node | null): Node[] {
  return node ? node.namedChildren.filter((child): child is Node => child !== null && child.type !== 'comment') : [];
}

export function isAsync(node: Node): boolean {
  return node.firstChild?.type === 'async';
}

/** Calls in an expression or simple statement, in source order, not looking into nested functions or lambdas. */
export function forEachCall(node: Node, visit: (call: Node) => void): void {
  if (NESTED_SCOPES.has(node.type)) return;
  for (const child of named(node)) forEachCall(child, visit);
  if (node.type === 'call') visit(node);
}

const BINDING_NODES = ['assignment', 'named_expression', 'as_pattern'];
/** Per tree, per body (node id): its bindings, which the graph, the flags and the callers all ask for. */
const bindingCache = new WeakMap<object, Map<number, Binding[]>>();

/** Assignments and `with … as` bindings of a function body (not of functions nested in it), in source order. */
export function collectBindings(body: Node): readonly Binding[] {
  let perTree = bindingCache.get(body.tree);
  if (!perTree) {
    perTree = new Map();
    bindingCache.set(body.tree, perTree);
  }
  const known = perTree.get(body.id);
  if (known) return known;
  const bindings: Binding[] = [];
  for (const node of ownDescendants(body, BINDING_NODES)) {
    if (node.type === 'assignment' || node.type === 'named_expression') {
      const target = node.childForFieldName(node.type === 'assignment' ? 'left' : 'name');
      const value = node.childForFieldName(node.type === 'assignment' ? 'right' : 'value');
      if (target && value) bindings.push({ target, value, asyncWith: false });
    } else if (node.parent?.type === 'with_item') {
      const value = named(node)[0];
      const target = named(node.childForFieldName('alias'))[0];
      const statement = node.parent.parent?.parent;
      if (value && target) bindings.push({ target, value, asyncWith: statement?.type === 'with_statement' && isAsync(statement) });
    }
  }
  perTree.set(body.id, bindings);
  return bindings;
}

/** The node types a file's scope index holds (see scopeIndex); other types are searched per body. */
const INDEXED = new Set(['assignment', 'named_expression', 'as_pattern', 'return_statement', 'yield', 'raise_statement', 'for_statement', 'with_statement']);
const SCOPE_TYPES = [...NESTED_SCOPES];

interface ScopeIndex {
  /**
   * Per scope (a function, class, lambda or decorated definition, by node id; the module by its own id): its own indexed
   * nodes, in source order, each with its type.
   */
  own: Map<number, IndexedNode[]>;
  /** Every function and class definition of the file, in source order. */
  definitions: Node[];
}

/** A node of the index with its type, asked of the parser once: every property of a node is a call into WebAssembly. */
interface IndexedNode {
  node: Node;
  type: string;
}

const indexes = new WeakMap<object, ScopeIndex>();

/**
 * One search of the whole file in the parser's own memory for the scopes and the nodes the analysis asks each function
 * for, each node filed under the innermost scope around it by its extent (no walk up or down the tree from JavaScript).
 */
function scopeIndex(root: Node): ScopeIndex {
  const known = indexes.get(root.tree);
  if (known) return known;
  const own = new Map<number, IndexedNode[]>();
  const definitions: Node[] = [];
  // The scopes around the node at hand, innermost last, and where each ends.
  const open: Node[] = [];
  const ends: number[] = [];
  for (const node of root.descendantsOfType([...INDEXED, ...SCOPE_TYPES])) {
    if (!node) continue;
    const type = node.type;
    // The keywords `yield` and `lambda` share their names with the nodes they start.
    if ((type === 'yield' || type === 'lambda') && !node.isNamed) continue;
    while (ends.length > 0 && ends[ends.length - 1] <= node.startIndex) {
      open.pop();
      ends.pop();
    }
    const scope = open.length > 0 ? open[open.length - 1].id : root.id;
    if (NESTED_SCOPES.has(type)) {
      if (type === 'function_definition' || type === 'class_definition') definitions.push(node);
      open.push(node);
      ends.push(node.endIndex);
      continue;
    }
    const list = own.get(scope);
    if (list) list.push({ node, type });
    else own.set(scope, [{ node, type }]);
  }
  const index = { own, definitions };
  indexes.set(root.tree, index);
  return index;
}

/** The function and class definitions of a parsed file, nested ones included, in source order. */
export function definitionsOf(root: Node): Node[] {
  return scopeIndex(root).definitions;
}

/**
 * The nodes of the given types in `body`, in source order, not those of functions, classes or lambdas nested in it. For
 * a function's body or the module, from the file's scope index; else the parser finds them in its own memory (nested
 * scopes included, to skip them by their extent), and only they are brought into JavaScript.
 */
export function ownDescendants(body: Node, types: readonly string[]): Node[] {
  const scope = body.type === 'module' ? body : body.parent?.type === 'function_definition' && body.parent.childForFieldName('body')?.id === body.id ? body.parent : null;
  if (scope && types.every((type) => INDEXED.has(type))) {
    const root = body.type === 'module' ? body : body.tree.rootNode;
    const listed = scopeIndex(root).own.get(scope.type === 'module' ? root.id : scope.id) ?? [];
    // A function's own list also holds what its parameters' defaults hold: not part of its body.
    const found: Node[] = [];
    for (const { node, type } of listed) if (node.startIndex >= body.startIndex && types.includes(type)) found.push(node);
    return found;
  }
  const found: Node[] = [];
  let nestedEnd = -1;
  for (const node of body.descendantsOfType([...types, ...NESTED_SCOPES])) {
    if (!node || node.id === body.id || ((node.type === 'yield' || node.type === 'lambda') && !node.isNamed)) continue;
    if (node.startIndex < nestedEnd) continue;
    if (NESTED_SCOPES.has(node.type)) {
      nestedEnd = node.endIndex;
      continue;
    }
    found.push(node);
  }
  return found;
}

/** The statement that holds a node: the outermost node below a block or the module. */
export function statementOf(node: Node): Node {
  let current = node;
  while (current.parent && current.parent.type !== 'block' && current.parent.type !== 'module') current = current.parent;
  return current;
}

/** `raise StopIteration` (or `StopAsyncIteration`, called or not): the end of an iteration, not an error. */
export function isStopIteration(raise: Node): boolean {
  const raised = named(raise)[0];
  const name = raised?.type === 'call' ? raised.childForFieldName('function')?.text : raised?.text;
  return name === 'StopIteration' || name === 'StopAsyncIteration';
}
