import { calleeName, holderKeyName, isFunction, propertyName, unwrap, type Node } from './ast.js';
import { isDrainCall } from './hand-off.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

const ITERATOR_STOP_MEMBERS = new Set(['return', 'throw', 'cancel']);
const EXEMPT_EVENTS = new Set(['abort', 'error', 'close', 'timeout', 'end', 'aborted']);
const LISTENER_METHODS = new Set(['addEventListener', 'on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
const TIMER_CALLS = new Set(['setTimeout', 'setInterval', 'setImmediate']);
const HANDLER_PROPERTIES = new Set(['onabort', 'onerror', 'onclose', 'ontimeout']);

/** Exempt paths (docs/rules/no-early-stream-close.md, "Exempt paths") that are a matter of where the close is written, not of how control reaches it. */
export function isLexicallyExempt(close: Node): boolean {
  let branchChecked = false;
  for (let node: Node = close, parent = close.parent; parent; node = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.CatchClause) return true;
    if (!branchChecked && isBranchBody(node, parent)) {
      branchChecked = true;
      if (endsInThrow(node)) return true;
    }
    if (isFunction(parent) && isExemptFunction(parent)) return true;
  }
  return false;
}

function isBranchBody(node: Node, parent: Node): boolean {
  if (parent.type === AST_NODE_TYPES.IfStatement) return node === parent.consequent || node === parent.alternate;
  return parent.type === AST_NODE_TYPES.SwitchCase && parent.consequent.some((statement) => statement === node);
}

function endsInThrow(node: Node): boolean {
  if (node.type === AST_NODE_TYPES.ThrowStatement) return true;
  if (node.type === AST_NODE_TYPES.BlockStatement) return node.body[node.body.length - 1]?.type === AST_NODE_TYPES.ThrowStatement;
  if (node.parent?.type === AST_NODE_TYPES.SwitchCase) {
    const body = node.parent.consequent;
    return body[body.length - 1]?.type === AST_NODE_TYPES.ThrowStatement;
  }
  return false;
}

/** Iterator / underlying-source stop members, callbacks of abort, timeout, error, close and end events, and a drain's give-up. */
function isExemptFunction(fn: Node): boolean {
  const key = holderKeyName(fn);
  if (key && ITERATOR_STOP_MEMBERS.has(key)) return true;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.right === fn && parent.left.type === AST_NODE_TYPES.MemberExpression) {
    const name = propertyName(parent.left);
    return name !== null && HANDLER_PROPERTIES.has(name.toLowerCase());
  }
  if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.some((argument) => argument === fn)) return false;
  const name = calleeName(parent.callee);
  if (!name) return false;
  if (TIMER_CALLS.has(name) || isDrainCall(name)) return true;
  if (name === 'catch') return true;
  if (name === 'then') return parent.arguments[1] === fn;
  if (LISTENER_METHODS.has(name)) {
    const event = unwrap(parent.arguments[0]);
    return event?.type === AST_NODE_TYPES.Literal && typeof event.value === 'string' && EXEMPT_EVENTS.has(event.value);
  }
  return false;
}
