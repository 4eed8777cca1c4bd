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

/** Assignments and `with … as` bindings of a function body (not of functions nested in it). */
export function collectBindings(body: Node): Binding[] {
  const bindings: Binding[] = [];
  const visit = (node: Node, asyncWith: boolean): void => {
    if (NESTED_SCOPES.has(node.type)) return;
    if (node.type === 'assignment' || node.type === 'named_expression') {
      const target = node.childForFieldName(node.type === 'assignment' ? 'left' : 'name');
      const value = node.childForFieldName(node.type === 'assignment' ? 'right' : 'value');
      if (target && value) bindings.push({ target, value, asyncWith: false });
    } else if (node.type === 'as_pattern' && node.parent?.type === 'with_item') {
      const value = named(node)[0];
      const target = named(node.childForFieldName('alias'))[0];
      if (value && target) bindings.push({ target, value, asyncWith });
    }
    const withAsync = node.type === 'with_statement' ? isAsync(node) : asyncWith;
    for (const child of named(node)) visit(child, withAsync);
  };
  visit(body, false);
  return bindings;
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
