import type { TSESLint } from '@typescript-eslint/utils';
import type { Effect } from '../core/effect.js';
import { ENTRY, apply, type FlowState } from '../core/facts.js';
import type { FlowGraph, Op as CoreOp } from '../core/graph.js';
import { solveFlow } from '../core/solve.js';

type Segment = TSESLint.CodePathSegment;
type CodePath = TSESLint.CodePath;

/** What the JavaScript front end records in a segment: a nested function's start inherits this path's facts. */
export type Op<Site> = CoreOp<Site, PathFacts<Site>>;

/** An effect on the edges into a segment: from every predecessor but `exceptFrom`, or from `onlyFrom` alone. */
type EdgeEffect = { effect: Effect; exceptFrom: ReadonlySet<Segment> } | { effect: Effect; onlyFrom: Segment };

/** Facts of one code path: ops recorded in each segment in traversal order, and effects of particular incoming edges. */
export class PathFacts<Site> {
  // Most code paths record nothing: the maps are made on first use.
  ops: Map<Segment, Op<Site>[]> | undefined;
  edgeEffects: Map<Segment, EdgeEffect[]> | undefined;
  seed: FlowState = ENTRY;
  /** The reachable segments open at the traversal point (unreachable ones hold no op, take no edge effect and are never a predecessor). */
  readonly current = new Set<Segment>();

  /** Set (before solving) when a site here, or in a code path that inherits this one's state, closes a response: only such paths are solved. */
  needed = false;
  sites: Site[] | undefined;

  constructor(
    readonly codePath: CodePath,
    readonly parent: PathFacts<Site> | null,
  ) {}

  record(op: Op<Site>): void {
    if (op.kind === 'site') (this.sites ??= []).push(op.site);
    for (const segment of this.current) this.recordIn(segment, op);
  }

  recordIn(segment: Segment, op: Op<Site>): void {
    if (!segment.reachable) return;
    this.ops ??= new Map();
    let list = this.ops.get(segment);
    if (!list) this.ops.set(segment, (list = []));
    list.push(op);
  }

  addEdgeEffect(into: Iterable<Segment>, effect: Effect, exceptFrom: ReadonlySet<Segment>): void {
    for (const segment of into) this.edgeEffectsInto(segment).push({ effect, exceptFrom });
  }

  /** An effect on the one edge `from` -> `into`. */
  addEdgeEffectFrom(from: Segment, into: Segment, effect: Effect): void {
    this.edgeEffectsInto(into).push({ effect, onlyFrom: from });
  }

  private edgeEffectsInto(segment: Segment): EdgeEffect[] {
    this.edgeEffects ??= new Map();
    let list = this.edgeEffects.get(segment);
    if (!list) this.edgeEffects.set(segment, (list = []));
    return list;
  }
}


/** A code path's segments as the analysis core's graph, solved from `seed`. */
class SegmentGraph<Site> implements FlowGraph<Segment, Site, PathFacts<Site>> {
  constructor(
    private readonly facts: PathFacts<Site>,
    private readonly seed: FlowState,
  ) {}

  entries(): ReadonlyArray<readonly [Segment, FlowState]> {
    return [[this.facts.codePath.initialSegment, this.seed]];
  }

  successors(segment: Segment): readonly Segment[] {
    return segment.nextSegments;
  }

  predecessors(segment: Segment): readonly Segment[] {
    return segment.prevSegments;
  }

  ops(segment: Segment): readonly Op<Site>[] {
    return this.facts.ops?.get(segment) ?? NO_OPS;
  }

  along(from: Segment, into: Segment, state: FlowState): FlowState {
    let incoming = state;
    for (const edge of this.facts.edgeEffects?.get(into) ?? NO_EDGE_EFFECTS) {
      if ('onlyFrom' in edge ? edge.onlyFrom === from : !edge.exceptFrom.has(from)) incoming = apply(edge.effect, incoming);
    }
    return incoming;
  }
}

const NO_OPS: readonly never[] = [];
const NO_EDGE_EFFECTS: readonly EdgeEffect[] = [];

/**
 * Solves one code path with the analysis core, then reports the merged state at every site and seeds every nested
 * code path it spawned. A called function's summary solves its path again from another entry state (`options.seed`).
 */
export function solve<Site>(
  facts: PathFacts<Site>,
  onSite: (site: Site, state: FlowState) => void,
  options: SolveOptions = {},
): void {
  const { sites, spawns } = solveFlow(new SegmentGraph(facts, options.seed ?? facts.seed));
  for (const [site, state] of sites) onSite(site, state);
  if (options.summaryOnly) return;
  // A callback starts from the merged state where it was written.
  for (const [child, state] of spawns) child.seed = state;
}

export interface SolveOptions {
  /** The state at the entry, instead of the code path's own seed. */
  seed?: FlowState;
  /** Only the states at the sites are wanted (a called function's summary): the callbacks' seeds are left as they are. */
  summaryOnly?: boolean;
}
