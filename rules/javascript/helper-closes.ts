import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { CloseKind } from '../contract/messages.js';
import { isDownleveledAsyncBody, isFunction, unwrap, type Node } from './ast.js';
import type { Family } from '../core/effect.js';
import { PENDING_AT_ENTRY } from '../core/facts.js';
import { solve, type PathFacts } from './flow.js';
import { calledFunction } from './function-results.js';
import { callsHelperName, parameterIndex, readsParameter, type CallNames } from './helper-calls.js';
import type { HelperCall } from './site.js';
import { isUnseenController, type StreamResolver } from './streams.js';

// What the call of a helper closes (docs/rules/no-early-stream-close.md, "A close in a called function"): each function
// that holds a close is summarised once, by solving its code path again from an entry where the terminal event is
// pending, as the closes it makes for its caller. helper-calls.ts finds the calls; record-sites.ts records them as sites.

/** What a summary reads of a site recorded in a function's code path (record-sites.ts). */
export interface RecordedClose {
  node: Node;
  messageId: CloseKind;
  /** The closed value (an explicit close's receiver). */
  receiver: Node;
  /** The close method of an explicit close. */
  method?: string;
  /** Which response the close belongs to. */
  family(): Family | null;
}

/** What a call of a helper closes. */
export interface HelperReach {
  family: Family;
  /** The helper, the close the call reaches and the call's argument it closes, as the fix planner takes them. */
  helper: HelperCall;
  method: string;
  /** The closed value as written at the close, where the helper closes a stream of its own (`helper.argument` is null). */
  receiverText: string;
}

/** A close a function makes for its caller, reached from its entry without EOF or an exempt branch in between. */
interface HelperClose {
  /** The close (in the function, or in a function it calls). */
  close: TSESTree.CallExpression;
  method: string;
  /** The closed value is the function's parameter at this index (the caller's argument); else it is `family`. */
  param: number | null;
  family: Family | null;
  /** The closed value as written at the close, for a close of the function's own. */
  receiverText: string;
}

/** What the summaries read of the file. */
export interface SummarySource {
  visitorKeys: Record<string, readonly string[] | undefined>;
  getText(node: Node): string;
}

/** The helpers of one file, called by `names`: the code paths of their functions, and what each closes once solved. */
export class HelperCloses<S extends RecordedClose> {
  /** The facts of each tracked function: a called helper is solved again from its entry. */
  private readonly factsByFunction = new Map<Node, PathFacts<S>>();
  /** Each function's closes for its caller; null while it is being summarised (a recursive call finds none). */
  private readonly summaries = new Map<Node, HelperClose[] | null>();

  constructor(
    private readonly names: CallNames,
    private readonly streams: StreamResolver,
    private readonly sourceCode: SummarySource,
  ) {}

  /** Whether `call` may run a helper: `f(…)` or `this.m(…)` of a helper's name. */
  calls(call: TSESTree.CallExpression): boolean {
    return callsHelperName(call, this.names);
  }

  /** Keeps the facts of a tracked code path that is a function's, to summarise it if it is called. */
  noteCodePath(node: Node, facts: PathFacts<S>): void {
    if (isFunction(node)) this.factsByFunction.set(node, facts);
  }

  /** What the call of a helper closes: the first close it reaches whose stream is a response (the argument's, or its own). */
  reach(call: TSESTree.CallExpression): HelperReach | null {
    const fn = calledFunction(call, this.streams);
    if (!fn || !isFunction(fn)) return null;
    const reached = (family: Family, entry: HelperClose, argument: Node | null): HelperReach => ({
      family,
      helper: { fn, close: entry.close, argument },
      method: entry.method,
      receiverText: entry.receiverText,
    });
    for (const entry of this.closesOf(fn)) {
      if (entry.param === null) return entry.family ? reached(entry.family, entry, null) : null;
      const argument = call.arguments[entry.param];
      if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) continue;
      const family = this.streams.closeFamilyFor(argument, entry.method);
      if (family) return reached(family, entry, argument);
    }
    return null;
  }

  /**
   * The closes `called` makes for its caller: each close of a parameter or of a response of its own that is reached from
   * the entry with the terminal event still pending (no EOF of that stream, no exempt branch, no catch), found by solving
   * its code path once more from that entry, and the closes of the helpers it calls in turn. A function that reads the
   * parameter it closes (a drain of its own) is not followed: its own reading decides.
   */
  private closesOf(called: Node): HelperClose[] {
    const { summaries, streams, sourceCode } = this;
    const fn = asyncBodyOf(called);
    if (summaries.has(fn)) return summaries.get(fn) ?? [];
    summaries.set(fn, null);
    const found: HelperClose[] = [];
    const facts = this.factsByFunction.get(fn);
    const variableOf = (identifier: TSESTree.Identifier) => streams.variableOf(identifier);
    // Its code path is solved only if one of its sites can close something for its caller: most functions that hold a
    // close close a stream of their own that is no response, or call a helper that closes nothing for them.
    const mayClose = (site: S): boolean => {
      if (site.messageId === 'explicitClose') return parameterIndex(called, site.receiver, variableOf) !== null || site.family() !== null;
      if (site.messageId !== 'helperClose' || site.node.type !== AST_NODE_TYPES.CallExpression) return false;
      const innerFn = calledFunction(site.node, streams);
      return innerFn !== null && isFunction(innerFn) && this.closesOf(innerFn).length > 0;
    };
    if (facts?.sites?.some(mayClose)) {
      solve(
        facts,
        (site, state) => {
          const pending = state?.pending;
          if (!pending) return;
          const drained = (family: Family): boolean => pending.eofed.has(family) || (isUnseenController(family) && pending.eofed.size > 0);
          if (site.messageId === 'explicitClose' && site.method && site.node.type === AST_NODE_TYPES.CallExpression) {
            const index = parameterIndex(called, site.receiver, variableOf);
            const receiver = unwrap(site.receiver);
            if (index !== null && receiver?.type === AST_NODE_TYPES.Identifier) {
              if (!readsParameter(fn, receiver.name, sourceCode.visitorKeys)) found.push({ close: site.node, method: site.method, param: index, family: null, receiverText: receiver.name });
              return;
            }
            const family = site.family();
            if (family && !drained(family)) found.push({ close: site.node, method: site.method, param: null, family, receiverText: sourceCode.getText(site.receiver) });
            return;
          }
          // A helper it calls in turn: what that one closes, through this one's parameters or as a stream of this one's.
          const inner = site.messageId === 'helperClose' && site.node.type === AST_NODE_TYPES.CallExpression ? site.node : null;
          const innerFn = inner ? calledFunction(inner, streams) : null;
          if (!inner || !innerFn) return;
          for (const entry of this.closesOf(innerFn)) {
            if (entry.param === null) {
              if (entry.family && !drained(entry.family)) found.push(entry);
              continue;
            }
            const argument = inner.arguments[entry.param];
            if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) continue;
            const index = parameterIndex(called, argument, variableOf);
            if (index !== null) {
              found.push({ ...entry, param: index });
              continue;
            }
            const family = streams.closeFamilyFor(argument, entry.method);
            if (family && !drained(family)) found.push({ ...entry, param: null, family, receiverText: sourceCode.getText(argument) });
          }
        },
        { seed: PENDING_AT_ENTRY, summaryOnly: true },
      );
    }
    summaries.set(fn, found);
    return found;
  }
}

/** The body that runs for `fn`: the generator a downleveled `async` method hands to `__awaiter`, else `fn` itself. */
function asyncBodyOf(fn: Node): Node {
  if (!isFunction(fn) || fn.body.type !== AST_NODE_TYPES.BlockStatement || fn.body.body.length !== 1) return fn;
  const statement = fn.body.body[0];
  const call = statement.type === AST_NODE_TYPES.ReturnStatement ? unwrap(statement.argument) : null;
  if (call?.type !== AST_NODE_TYPES.CallExpression) return fn;
  const body = call.arguments.find((argument): argument is TSESTree.FunctionExpression => argument.type === AST_NODE_TYPES.FunctionExpression && isDownleveledAsyncBody(argument));
  return body ?? fn;
}
