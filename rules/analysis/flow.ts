import type { TSESLint } from '@typescript-eslint/utils';
import type { Effect, Family } from './effect.js';

type Segment = TSESLint.CodePathSegment;
type CodePath = TSESLint.CodePath;

/** "A terminal event was seen on some path here and EOF has not been reached since" — for every family not in `eofed`. */
export interface Pending {
  eofed: ReadonlySet<Family>;
  label: string;
}

/**
 * Facts at a program point: `pending` (may: some path saw a terminal event; `eofed` are the families drained on
 * every such path since) and `eof` (must: families that reached EOF on every path). A stream at EOF stays there, so a
 * terminal event recognised after EOF (a `finished` flag tested after the drained loop) starts with `eof` drained.
 */
export interface Facts {
  pending: Pending | null;
  eof: ReadonlySet<Family>;
}
/** `null`: not reached (yet) — the bottom of the lattice. */
export type FlowState = Facts | null;

const NO_FAMILIES: ReadonlySet<Family> = new Set();
export const ENTRY: Facts = { pending: null, eof: NO_FAMILIES };

export type Op<Site> =
  | { kind: 'effect'; effect: Effect }
  | { kind: 'site'; site: Site }
  | { kind: 'spawn'; child: PathFacts<Site> };

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

/** The reachable segments of a code path, breadth-first from its initial segment (roughly traversal order). */
function reachableSegments(codePath: CodePath): Segment[] {
  const order = [codePath.initialSegment];
  const seen = new Set(order);
  for (let index = 0; index < order.length; index++) {
    for (const next of order[index].nextSegments) {
      if (!seen.has(next)) {
        seen.add(next);
        order.push(next);
      }
    }
  }
  return order;
}

export function apply(effect: Effect, state: FlowState): FlowState {
  if (!state) return state;
  switch (effect.kind) {
    case 'deferred':
      return apply(effect.resolve(), state);
    case 'none':
      return state;
    case 'gen':
      return { pending: { eofed: state.eof, label: effect.label }, eof: state.eof };
    case 'killAll':
      return state.pending ? { pending: null, eof: state.eof } : state;
    case 'kill': {
      if (state.eof.has(effect.family)) return state;
      const eof = new Set(state.eof).add(effect.family);
      const pending = state.pending && !state.pending.eofed.has(effect.family)
        ? { eofed: new Set(state.pending.eofed).add(effect.family), label: state.pending.label }
        : state.pending;
      return { pending, eof };
    }
  }
}

function intersect(a: ReadonlySet<Family>, b: ReadonlySet<Family>): ReadonlySet<Family> {
  if (a === b) return a;
  const out = new Set<Family>();
  for (const family of a) if (b.has(family)) out.add(family);
  return out;
}

/** May-merge of pending (drained only if drained on every pending path), must-merge of EOF. */
export function merge(a: FlowState, b: FlowState): FlowState {
  if (!a) return b;
  if (!b) return a;
  const eof = intersect(a.eof, b.eof);
  let pending: Pending | null;
  if (!a.pending) pending = b.pending;
  else if (!b.pending) pending = a.pending;
  else pending = { eofed: intersect(a.pending.eofed, b.pending.eofed), label: a.pending.label };
  return { pending, eof };
}

function sameSet(a: ReadonlySet<Family>, b: ReadonlySet<Family>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const family of a) if (!b.has(family)) return false;
  return true;
}

function same(a: FlowState, b: FlowState): boolean {
  if (!a || !b) return a === b;
  if (!sameSet(a.eof, b.eof)) return false;
  if (!a.pending || !b.pending) return a.pending === b.pending;
  return sameSet(a.pending.eofed, b.pending.eofed);
}

/**
 * Solves one code path to a fixed point over its segments (never enumerating paths),
 * then reports the merged state at every site and every nested code path it spawned.
 * A called function's summary solves its path again from another entry state (`options.seed`).
 */
export function solve<Site>(
  facts: PathFacts<Site>,
  onSite: (site: Site, state: FlowState) => void,
  options: SolveOptions = {},
): void {
  const out = new Map<Segment, FlowState>();
  const initial = facts.codePath.initialSegment;
  const seed = options.seed ?? facts.seed;
  const entryState = (segment: Segment): FlowState => {
    if (segment === initial) return seed;
    let state: FlowState = null;
    const edges = facts.edgeEffects?.get(segment);
    for (const previous of segment.prevSegments) {
      let incoming = out.get(previous) ?? null;
      for (const edge of edges ?? []) if ('onlyFrom' in edge ? edge.onlyFrom === previous : !edge.exceptFrom.has(previous)) incoming = apply(edge.effect, incoming);
      state = merge(state, incoming);
    }
    return state;
  };
  const run = (segment: Segment, visit?: (op: Op<Site>, state: FlowState) => void): FlowState => {
    let state = entryState(segment);
    for (const op of facts.ops?.get(segment) ?? []) {
      if (op.kind === 'effect') state = apply(op.effect, state);
      else visit?.(op, state);
    }
    return state;
  };

  // Worklist in traversal order: a segment is recomputed only when one of its predecessors changed.
  const reachable = reachableSegments(facts.codePath);
  const queue = [...reachable];
  const queued = new Set(reachable);
  for (let head = 0; head < queue.length; head++) {
    const segment = queue[head];
    queued.delete(segment);
    const state = run(segment);
    if (out.has(segment) && same(state, out.get(segment)!)) continue;
    out.set(segment, state);
    for (const next of segment.nextSegments) {
      if (!queued.has(next) && next.reachable) {
        queued.add(next);
        queue.push(next);
      }
    }
  }

  const siteStates = new Map<Site, FlowState>();
  const spawnStates = new Map<PathFacts<Site>, FlowState>();
  for (const segment of reachable) {
    run(segment, (op, state) => {
      if (op.kind === 'site') siteStates.set(op.site, merge(siteStates.get(op.site) ?? null, state));
      else if (op.kind === 'spawn') spawnStates.set(op.child, merge(spawnStates.get(op.child) ?? null, state));
    });
  }
  for (const [site, state] of siteStates) onSite(site, state);
  if (options.summaryOnly) return;
  // A callback starts from the merged state where it was written.
  for (const [child, state] of spawnStates) child.seed = state;
}

export interface SolveOptions {
  /** The state at the entry, instead of the code path's own seed. */
  seed?: FlowState;
  /** Only the states at the sites are wanted (a called function's summary): the callbacks' seeds are left as they are. */
  summaryOnly?: boolean;
}

/** The entry of a function called on a completion branch: the terminal event is pending, nothing has reached EOF. */
export const PENDING_AT_ENTRY: Facts = { pending: { eofed: NO_FAMILIES, label: '' }, eof: NO_FAMILIES };
