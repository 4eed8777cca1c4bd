import type { SourceCode } from 'eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, isDownleveledAsyncBody, isFunction, isLoop, propertyName, unwrap, walk, type Node } from '../rules/analysis/ast.js';
import { StreamResolver, type Family } from '../rules/analysis/streams.js';
import { innermostLeftAsyncLoop, jumpTarget } from '../rules/no-early-stream-close.js';
import type { FoundSite } from './find-sites.js';

const PROMISE_CLOSES = new Set(['cancel', 'aclose', 'return']);

/** Replace the close statement by reading `reader` to EOF (SPEC §2 "local drain loop"). */
export interface LocalDrainPlan {
  kind: 'local-drain';
  site: FoundSite;
  statement: Node;
  reader: string;
  readMethod: 'read' | 'next';
  /** What the budget timer runs: the original close, or the request's abort; null when nothing can end the drain early. */
  budget: { text: string; returnsPromise: boolean } | null;
}

/** Keep the `for await` running to EOF behind a flag (SPEC §2 "flag and continue"). */
export interface FlagSiteChange {
  site: FoundSite;
  statement: Node;
  kind: 'close' | 'break' | 'return';
  returned: string | null;
}
export interface FlagPlan {
  kind: 'flag';
  loop: TSESTree.ForOfStatement;
  changes: FlagSiteChange[];
  budget: { text: string; returnsPromise: boolean } | null;
}

export interface ManualPlan {
  kind: 'manual';
  site: FoundSite;
  reason: string;
}

export type Plan = LocalDrainPlan | FlagPlan | ManualPlan;

export function planSites(sites: readonly FoundSite[], sourceCode: SourceCode): Plan[] {
  const streams = new StreamResolver({
    getScope: (node) => sourceCode.getScope(node as never) as never,
    visitorKeys: sourceCode.visitorKeys as Record<string, readonly string[]>,
  });
  const text = (node: Node): string => sourceCode.getText(node as never);
  const plans: Plan[] = [];
  const flagPlans = new Map<Node, FlagPlan>();
  const manual = (site: FoundSite, reason: string): void => {
    plans.push({ kind: 'manual', site, reason });
  };

  for (const site of sites) {
    const node = site.node;
    const fn = enclosingFunction(node);
    if (fn && isDownleveledAsyncBody(fn)) {
      manual(site, 'compiled output (TypeScript\'s downleveled async code) is not rewritten; fix the source it was compiled from');
      continue;
    }
    if (fn && isDataHandler(fn)) {
      manual(site, "the close is in a 'data' handler: resolve on the terminal event, keep the handler reading until 'end', and destroy the stream only from a timer if 'end' does not come");
      continue;
    }
    if (!fn || !(fn as TSESTree.FunctionLike).async) {
      manual(site, 'the close is not inside an async function, so it cannot await a drain');
      continue;
    }
    if (node.type === 'CallExpression') {
      const callee = unwrap(node.callee) as TSESTree.MemberExpression;
      const method = propertyName(callee) ?? '';
      const statement = closeStatement(node);
      if (!statement) {
        manual(site, 'the close is used as a value, not as a statement of its own');
        continue;
      }
      const family = method === 'terminate' ? streams.transformControllerFamily(callee.object) : streams.familyOf(callee.object);
      const reader = family ? findReaderInHand(node, callee.object as Node, family, fn, streams, sourceCode) : null;
      const closeText = text(unwrapClose(node));
      if (reader) {
        // A pending next() of an async iterator holds back its return(), so only an abort can end that drain early.
        const controller = reader.method === 'next' && family ? findRequestController(node, family, streams, sourceCode) : null;
        const budget =
          reader.method === 'read'
            ? { text: closeText, returnsPromise: PROMISE_CLOSES.has(method) }
            : controller
              ? { text: `${controller}.abort()`, returnsPromise: false }
              : null;
        plans.push({ kind: 'local-drain', site, statement, reader: reader.text, readMethod: reader.method, budget });
        continue;
      }
      const loop = family ? enclosingAsyncLoopOf(node, family, streams) : null;
      if (!loop) {
        manual(site, 'no reader of this response is in hand to drain, and the close is not inside a `for await` over it');
        continue;
      }
      const problem = flagProblem(node, loop);
      if (problem) {
        manual(site, problem);
        continue;
      }
      const plan = flagPlanFor(loop, flagPlans, plans);
      plan.changes.push({ site, statement, kind: 'close', returned: null });
      plan.budget ??= { text: closeText, returnsPromise: PROMISE_CLOSES.has(method) };
      continue;
    }
    if (node.type === 'BreakStatement' || node.type === 'ReturnStatement' || node.type === 'ContinueStatement') {
      const target = node.type === 'ReturnStatement' ? null : jumpTarget(node);
      const loop = innermostLeftAsyncLoop(node, target);
      if (!loop || loop.type !== 'ForOfStatement') {
        manual(site, 'downleveled async iteration (`__asyncValues`) is not rewritten; fix the source it was compiled from');
        continue;
      }
      if (node.type === 'ContinueStatement' || (node.type === 'BreakStatement' && target !== loop)) {
        manual(site, 'the jump leaves more than the `for await` loop (a labeled break or continue to an outer statement)');
        continue;
      }
      const problem = flagProblem(node, loop);
      if (problem) {
        manual(site, problem);
        continue;
      }
      const plan = flagPlanFor(loop, flagPlans, plans);
      plan.changes.push({
        site,
        statement: node,
        kind: node.type === 'BreakStatement' ? 'break' : 'return',
        returned: node.type === 'ReturnStatement' && node.argument ? text(node.argument) : null,
      });
      continue;
    }
    manual(site, `unsupported site ${node.type}`);
  }

  for (const plan of flagPlans.values()) {
    if (plan.budget) continue;
    const family = streams.asyncLoopFamily(plan.loop);
    const controller = family ? findRequestController(plan.loop, family, streams, sourceCode) : null;
    if (controller) plan.budget = { text: `${controller}.abort()`, returnsPromise: false };
  }
  return plans;
}

function flagPlanFor(loop: TSESTree.ForOfStatement, flagPlans: Map<Node, FlagPlan>, plans: Plan[]): FlagPlan {
  let plan = flagPlans.get(loop);
  if (!plan) {
    plan = { kind: 'flag', loop, changes: [], budget: null };
    flagPlans.set(loop, plan);
    plans.push(plan);
  }
  return plan;
}

/** Why flag-and-continue would change where control goes, or null when it is safe. */
function flagProblem(node: Node, loop: TSESTree.ForOfStatement): string | null {
  if (loop.body.type !== 'BlockStatement') return 'the `for await` body is not a block';
  for (let current = node.parent; current && current !== loop; current = current.parent) {
    if (isLoop(current)) return '`continue` would apply to an inner loop, not to the `for await`';
    if (isFunction(current)) return 'the close is in a nested function';
  }
  for (let current: Node | undefined = loop.parent; current; current = current.parent) {
    if (isFunction(current)) break;
    if (current.type === 'ForOfStatement' && current.await) return 'nested `for await` loops are left to a person';
  }
  return null;
}

/** `stream.on('data', fn)` (or `once`/`addListener`): a Node stream's chunk callback. */
function isDataHandler(fn: Node): boolean {
  const call = fn.parent;
  if (call?.type !== 'CallExpression' || call.arguments[1] !== fn) return false;
  const event = call.arguments[0];
  const method = calleeName(call.callee);
  return event?.type === 'Literal' && event.value === 'data' && (method === 'on' || method === 'once' || method === 'addListener');
}

function enclosingFunction(node: Node): Node | null {
  for (let current = node.parent; current; current = current.parent) if (isFunction(current)) return current;
  return null;
}

/** The expression statement that is just the close (`await x.cancel()`, `x.cancel().catch(…)`, `void x.abort()`). */
function closeStatement(call: Node): Node | null {
  let node: Node = call;
  for (;;) {
    const parent = node.parent;
    if (!parent) return null;
    if (parent.type === 'AwaitExpression' || parent.type === 'ChainExpression' || (parent.type === 'UnaryExpression' && parent.operator === 'void')) {
      node = parent;
      continue;
    }
    if (parent.type === 'MemberExpression' && parent.object === node && propertyName(parent) === 'catch' && parent.parent?.type === 'CallExpression') {
      node = parent.parent;
      continue;
    }
    return parent.type === 'ExpressionStatement' ? parent : null;
  }
}

function unwrapClose(call: Node): Node {
  return call.parent?.type === 'ChainExpression' ? call.parent : call;
}

/** A reader or iterator of the same response that this function reads with `.read()`/`.next()` and that is in scope at the close. */
function findReaderInHand(
  close: Node,
  receiver: Node,
  family: Family,
  fn: Node,
  streams: StreamResolver,
  sourceCode: SourceCode,
): { text: string; method: 'read' | 'next' } | null {
  const receiverText = sourceCode.getText(receiver as never);
  const searchRoot = unwrap(receiver)?.type === 'MemberExpression' ? enclosingClassOrSelf(fn) : fn;
  let best: { text: string; method: 'read' | 'next' } | null = null;
  walk(searchRoot, sourceCode.visitorKeys as Record<string, readonly string[]>, (node) => {
    if (node.type !== 'CallExpression' || node.arguments.length > 0) return;
    const callee = unwrap(node.callee);
    if (callee?.type !== 'MemberExpression') return;
    const method = calleeName(callee);
    if (method !== 'read' && method !== 'next') return;
    const object = callee.object as Node;
    const objectText = sourceCode.getText(object as never);
    if (best?.text === receiverText) return;
    if (objectText !== receiverText && streams.familyOf(object) !== family) return;
    if (!inScopeAt(object, close, sourceCode)) return;
    best = { text: objectText, method };
  });
  return best;
}

function enclosingClassOrSelf(fn: Node): Node {
  for (let current = fn.parent; current; current = current.parent) if (current.type === 'ClassBody') return current as Node;
  return fn;
}

/** An identifier reader must name the same variable at the close; `this.x` always does. */
function inScopeAt(reader: Node, close: Node, sourceCode: SourceCode): boolean {
  const target = unwrap(reader);
  if (target?.type === 'MemberExpression') return unwrap(target.object)?.type === 'ThisExpression' || target.object.type === 'Identifier';
  if (target?.type !== 'Identifier') return false;
  return variableAt(target.name, reader, sourceCode) !== null && variableAt(target.name, reader, sourceCode) === variableAt(target.name, close, sourceCode);
}

interface ScopeLike {
  set: Map<string, unknown>;
  upper: ScopeLike | null;
}

function variableAt(name: string, node: Node, sourceCode: SourceCode): unknown {
  for (let scope = sourceCode.getScope(node as never) as unknown as ScopeLike | null; scope; scope = scope.upper) {
    const variable = scope.set.get(name);
    if (variable) return variable;
  }
  return null;
}

function enclosingAsyncLoopOf(node: Node, family: Family, streams: StreamResolver): TSESTree.ForOfStatement | null {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunction(current)) return null;
    if (current.type === 'ForOfStatement' && current.await && streams.familyOf(current.right) === family) return current;
  }
  return null;
}

/** The `AbortController` whose signal went into the request of `family`, if one is in scope at `at`. */
function findRequestController(at: Node, family: Family, streams: StreamResolver, sourceCode: SourceCode): string | null {
  const fn = enclosingFunction(at);
  if (!fn) return null;
  let found: string | null = null;
  walk(fn, sourceCode.visitorKeys as Record<string, readonly string[]>, (node) => {
    if (found || node.type !== 'VariableDeclarator' || node.id.type !== 'Identifier') return;
    const init = unwrap(node.init);
    if (init?.type !== 'NewExpression' || calleeName(init.callee) !== 'AbortController') return;
    if (streams.familyOf(node.id) === family && inScopeAt(node.id, at, sourceCode)) found = node.id.name;
  });
  return found;
}
