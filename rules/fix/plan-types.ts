import type { TSESTree } from '@typescript-eslint/utils';
import type { Node } from '../javascript/ast.js';
import type { StreamSite } from '../javascript/site.js';
import type { GiveUp } from './give-up.js';
import type { DataHandlerPlan } from './plan-data-handler.js';
import type { IteratorTap } from './plan-iterator-tap.js';
import type { LoopDrain } from './plan-loop.js';

// What the planner decides per site: the plans the edit builder takes, and what one site's step hands on before the
// sites of one `for await` are gathered into that loop's plan.

/**
 * A close of a reader (`read()`) or of an iterator of parsed messages (`next()`) in hand: the close statement becomes
 * a drain of it. `detached`: nothing reads it after the close, so the drain runs in the background and the function
 * goes on at once; otherwise the drain is awaited (still bounded) so that later reads see EOF as before.
 */
export interface ReaderPlan {
  kind: 'reader';
  site: StreamSite;
  statement: Node;
  /** The drained reader or iterator, as written at the close. */
  drained: string;
  method: 'read' | 'next';
  /** What it reads is the body's own chunks (see readerYieldsBytes), so the drain's byte limit counts the body. */
  bytes: boolean;
  giveUp: GiveUp;
  /** The close went through optional chaining (`reader?.cancel()`): drain only when the reader is there. */
  optional: boolean;
  detached: boolean;
  /** A close in a `finally` without `catch`: error paths get a `catch` that closes at once and rethrows. */
  finallyOf: TSESTree.TryStatement | null;
  /** A close in a `finally` after a `catch`: drain only when this flag, set at the terminal event, is set. */
  flag: string | null;
  closeText: string;
}

/**
 * A close of an iterator of parsed messages in hand whose parser was given a fetch Response or its body where the
 * iterator is declared (`const messages = sseMessages(response.body)`): the parser gets a stand-in fed from the body's
 * reader (`tapBody`), and the close becomes a background drain of the real body as bytes.
 */
export interface IteratorTapPlan extends IteratorTap {
  kind: 'iteratorTap';
  site: StreamSite;
  statement: Node;
}

/** A site inside a `for await`: the loop iterates a drainable wrapper; the completion branch hands the rest of it to a background drain. */
export interface LoopChange {
  site: StreamSite;
  statement: Node;
  /** `close`: the close statement is replaced by the hand-off; `jump`: the hand-off goes before the break/return/continue. */
  kind: 'close' | 'jump';
}

export interface LoopPlan {
  kind: 'loop';
  loop: TSESTree.ForOfStatement;
  changes: LoopChange[];
  drain: LoopDrain;
}

export interface ManualPlan {
  kind: 'manual';
  site: StreamSite;
  reason: string;
}

export type Plan = ReaderPlan | IteratorTapPlan | LoopPlan | DataHandlerPlan | ManualPlan;

/** One site's hand-off inside `loop`, before the sites of that loop are gathered into its {@link LoopPlan}. */
export interface LoopSitePlan {
  kind: 'loopSite';
  loop: TSESTree.ForOfStatement;
  change: LoopChange;
  /** The site's own explicit close (not a helper's call, not a jump): the loop's first one may end its drain. */
  close: TSESTree.CallExpression | null;
}

/** What the step of one site decides. */
export type SitePlan = Exclude<Plan, LoopPlan> | LoopSitePlan;

export function manual(site: StreamSite, reason: string): ManualPlan {
  return { kind: 'manual', site, reason };
}
