import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, unwrap, type Node } from '../javascript/ast.js';
import type { StreamResolver } from '../javascript/streams.js';
import type { StreamSite } from '../javascript/site.js';
import { giveUpFor, type GiveUp } from './give-up.js';
import { variableAt } from './plan-scope.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/**
 * A close inside a Node stream's `'data'` handler (`res.on('data', …)`): the close statement becomes a call of the
 * per-file helper that stops the handlers, discards the rest of `stream` to its end and destroys it after the budget.
 */
export interface DataHandlerPlan {
  kind: 'dataHandler';
  site: StreamSite;
  statement: Node;
  /** The stream whose 'data' handler holds the close, as written there (`res`, `res.data`, `body`). */
  stream: string;
  /** The original close (`res.destroy()`, `req.destroy()`), done past the drain's limits. */
  giveUp: GiveUp;
}

export const DATA_HANDLER_NOT_A_STATEMENT_REASON =
  "the close in this Node 'data' handler is used as a value: make it a statement of its own (`res.destroy();`) to make it rewritable";
export const DATA_HANDLER_OTHER_STREAM_REASON =
  "the close in this Node 'data' handler ends something whose response is not in hand here: destroy the response whose 'data' this handler reads, or drain it to 'end' and destroy it only from a timer";
export const DATA_HANDLER_DERIVED_REASON =
  "this 'data' handler reads a stream built from the response (a pipe, a parser), not the response: drain the response itself to 'end' and destroy it only from a timer";
export const DATA_HANDLER_RECEIVER_REASON =
  "the stream of this 'data' handler is not a name or a property path: keep the response in a variable and add the handler to it to make it rewritable";

/** `stream.on('data', fn)` (or `once`/`addListener`): the call, when `fn` is a Node stream's chunk callback. */
export function dataHandlerCall(fn: Node): TSESTree.CallExpression | null {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[1] !== fn) return null;
  const event = call.arguments[0];
  const method = calleeName(call.callee);
  const isData = event?.type === AST_NODE_TYPES.Literal && event.value === 'data' && (method === 'on' || method === 'once' || method === 'addListener');
  return isData ? call : null;
}

/**
 * Plans the close `node` found directly in the 'data' handler `handler`. `statement` is the expression statement that
 * is the close, or null when the close is used as a value.
 */
export function planDataHandler(
  site: StreamSite,
  handler: Node,
  statement: Node | null,
  streams: StreamResolver,
  sourceCode: SourceCode,
): DataHandlerPlan | { kind: 'manual'; site: StreamSite; reason: string } {
  const manual = (reason: string) => ({ kind: 'manual' as const, site, reason });
  const call = dataHandlerCall(handler)!;
  const callee = unwrap(call.callee);
  const stream = callee?.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : null;
  if (stream && isBuilt(stream)) return manual(DATA_HANDLER_DERIVED_REASON);
  if (!stream || !isPath(stream)) return manual(DATA_HANDLER_RECEIVER_REASON);
  if (!statement) return manual(DATA_HANDLER_NOT_A_STATEMENT_REASON);
  const close = unwrap(site.node);
  const closeCallee = close?.type === AST_NODE_TYPES.CallExpression ? unwrap(close.callee) : null;
  if (close?.type !== AST_NODE_TYPES.CallExpression || closeCallee?.type !== AST_NODE_TYPES.MemberExpression) return manual(DATA_HANDLER_OTHER_STREAM_REASON);
  const receiver: Node = closeCallee.object;
  const text = (node: Node): string => sourceCode.getText(node).replace(/[!?]+$/, '');
  // The response itself, or the request it answers (`req.destroy()` of the request `http.get` returned).
  const sameStream = text(receiver) === text(stream) || (streams.familyOf(receiver) !== null && streams.familyOf(receiver) === streams.familyOf(stream));
  if (!sameStream) return manual(DATA_HANDLER_OTHER_STREAM_REASON);
  if (isDerivedVariable(stream, sourceCode)) return manual(DATA_HANDLER_DERIVED_REASON);
  const giveUp = giveUpFor(close, stream, 'stream', 'destroy', sourceCode);
  return { kind: 'dataHandler', site, statement, stream: sourceCode.getText(stream), giveUp };
}

/** `res`, `res.data`, `this.body`: read again at the close without side effects. */
function isPath(node: Node): boolean {
  if (node.type === AST_NODE_TYPES.Identifier || node.type === AST_NODE_TYPES.ThisExpression) return true;
  if (node.type !== AST_NODE_TYPES.MemberExpression || node.computed) return false;
  const object = unwrap(node.object);
  return object !== null && object !== undefined && isPath(object);
}

/** A stream made by a call that is not awaited (`x.pipe(parser)`, `open(res)`, `new Parser(res)`): not the response itself. */
function isBuilt(node: Node | null | undefined): boolean {
  let current = node ?? null;
  while (current?.type === AST_NODE_TYPES.TSAsExpression || current?.type === AST_NODE_TYPES.TSNonNullExpression || current?.type === AST_NODE_TYPES.TSSatisfiesExpression) current = current.expression;
  return current?.type === AST_NODE_TYPES.CallExpression || current?.type === AST_NODE_TYPES.NewExpression;
}

/** A variable set from a stream built by a call (`const events = incoming.pipe(createSSEParser())`). */
function isDerivedVariable(stream: Node, sourceCode: SourceCode): boolean {
  if (stream.type !== AST_NODE_TYPES.Identifier) return false;
  const definition = variableAt(stream.name, stream, sourceCode)?.defs[0]?.node;
  return definition?.type === AST_NODE_TYPES.VariableDeclarator && definition.id.type === AST_NODE_TYPES.Identifier && isBuilt(definition.init);
}
