import type { TSESTree } from '@typescript-eslint/utils';
import type { Node } from '../javascript/ast.js';
import type { PlanContext } from './plan-context.js';
import type { ReaderInHand } from './plan-reader.js';
import type { ReaderPlan } from './plan-types.js';
import { readerYieldsBytes } from './web-body.js';

// What an explicit close and a helper's call share when a reader of the response is in hand where they are: which
// reader to drain, whether the code can wait for the drain, and the reader plan itself.

/**
 * The reader in hand to drain at the close. Not an iterator read with `next()` inside a `for await` over the same
 * response: that site is planned with the loop.
 */
export function readerToDrain(reader: ReaderInHand | null, loop: TSESTree.ForOfStatement | null): ReaderInHand | null {
  return reader && !(loop && reader.method === 'next') ? reader : null;
}

/** The function of the close is async, so an awaited drain can go where the close was. */
export function canWaitForDrain(fn: Node | null): boolean {
  return Boolean(fn && 'async' in fn && fn.async);
}

/** The reader plan: what the reader and the close statement say, with where and how the drain runs. */
export function readerPlan(context: PlanContext, reader: ReaderInHand, drain: Omit<ReaderPlan, 'kind' | 'drained' | 'method' | 'bytes' | 'closeText'>): ReaderPlan {
  return {
    kind: 'reader',
    site: drain.site,
    statement: drain.statement,
    drained: reader.text,
    method: reader.method,
    bytes: reader.method === 'read' && readerYieldsBytes(reader.node, context.sourceCode),
    giveUp: drain.giveUp,
    optional: drain.optional,
    detached: drain.detached,
    finallyOf: drain.finallyOf,
    flag: drain.flag,
    closeText: context.text(drain.statement),
  };
}
