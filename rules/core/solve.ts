import { apply, merge, same, type FlowState } from './facts.js';
import type { FlowGraph, Op } from './graph.js';

/** The facts before each site and at each nested function's start, merged over every block that holds it. */
export interface Solution<Site, Child> {
  sites: Map<Site, FlowState>;
  spawns: Map<Child, FlowState>;
}

/** The blocks reachable from the entries, breadth-first (roughly the order of the source). */
function reachableBlocks<Block>(graph: FlowGraph<Block, unknown, unknown>): Block[] {
  const order = graph.entries().map(([block]) => block);
  const seen = new Set(order);
  for (let index = 0; index < order.length; index++) {
    for (const next of graph.successors(order[index])) {
      if (!seen.has(next)) {
        seen.add(next);
        order.push(next);
      }
    }
  }
  return order;
}

/**
 * Solves the facts forward over a front end's graph to a fixed point — a block is computed again only when what
 * flows out of one of its predecessors changed; no path is enumerated — then gives the merged facts before every
 * site and at the start of every nested function.
 */
export function solveFlow<Block, Site, Child = never>(graph: FlowGraph<Block, Site, Child>): Solution<Site, Child> {
  const seeds = new Map<Block, FlowState>();
  for (const [block, facts] of graph.entries()) seeds.set(block, merge(seeds.get(block) ?? null, facts));
  const out = new Map<Block, FlowState>();
  const entryState = (block: Block): FlowState => {
    let state = seeds.get(block) ?? null;
    for (const previous of graph.predecessors(block)) state = merge(state, graph.along(previous, block, out.get(previous) ?? null));
    return state;
  };
  const run = (block: Block, visit?: (op: Op<Site, Child>, state: FlowState) => void): FlowState => {
    let state = entryState(block);
    for (const op of graph.ops(block)) {
      if (op.kind === 'effect') state = apply(op.effect, state);
      else visit?.(op, state);
    }
    return state;
  };

  const reachable = reachableBlocks(graph);
  const queue = [...reachable];
  const queued = new Set(reachable);
  for (let head = 0; head < queue.length; head++) {
    const block = queue[head];
    queued.delete(block);
    const state = run(block);
    if (out.has(block) && same(state, out.get(block)!)) continue;
    out.set(block, state);
    for (const next of graph.successors(block)) {
      if (!queued.has(next)) {
        queued.add(next);
        queue.push(next);
      }
    }
  }

  const solution: Solution<Site, Child> = { sites: new Map(), spawns: new Map() };
  for (const block of reachable) {
    run(block, (op, state) => {
      if (op.kind === 'site') solution.sites.set(op.site, merge(solution.sites.get(op.site) ?? null, state));
      else if (op.kind === 'spawn') solution.spawns.set(op.child, merge(solution.spawns.get(op.child) ?? null, state));
    });
  }
  return solution;
}
