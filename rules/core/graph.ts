import type { Effect } from './effect.js';
import type { FlowState } from './facts.js';

/**
 * What happens at a point of a block, in order: an effect on the facts, a close the front end may report (`site`),
 * or the start of a nested function that inherits the facts where it is written (`spawn`, a callback).
 */
export type Op<Site, Child = never> =
  | { kind: 'effect'; effect: Effect }
  | { kind: 'site'; site: Site }
  | { kind: 'spawn'; child: Child };

/**
 * The control-flow graph a language front end builds for one function (docs/architecture.md, "The analysis core"):
 * blocks in straight-line order of their ops, with the edges between them. The JavaScript front end adapts ESLint's
 * code-path segments (rules/javascript/flow.ts); the Python one builds its blocks from tree-sitter (rules/python/cfg.ts).
 */
export interface FlowGraph<Block, Site, Child = never> {
  /**
   * Where the flow starts, each with the facts there (a function's entry; an `except` handler entered afresh; `null`
   * for a callback written where nothing reaches).
   */
  entries(): ReadonlyArray<readonly [Block, FlowState]>;
  successors(block: Block): readonly Block[];
  predecessors(block: Block): readonly Block[];
  ops(block: Block): readonly Op<Site, Child>[];
  /** The facts that reach `into` along the edge from `from` (taking a branch can recognise or end the event). */
  along(from: Block, into: Block, state: FlowState): FlowState;
}
