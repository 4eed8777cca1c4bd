import type { Rule } from 'eslint';
import type { Effect } from './branch-tests.js';
import type { Family } from './streams.js';

type Segment = Rule.CodePathSegment;
type CodePath = Rule.CodePath;

/** "A terminal event was seen on some path here and EOF has not been reached since" — for every family not in `eofed`. */
export interface Pending {
  eofed: ReadonlySet<Family>;
  label: string;
}
export type FlowState = Pending | null;

export type Op<Site> =
  | { kind: 'effect'; effect: Effect }
  | { kind: 'site'; site: Site }
  | { kind: 'spawn'; child: CodePath };

interface EdgeEffect {
  effect: Effect;
  exceptFrom: ReadonlySet<Segment>;
}

/** Facts of one code path: ops recorded in each segment in traversal order, and effects of particular incoming edges. */
export class PathFacts<Site> {
  readonly segments: Segment[] = [];
  readonly ops = new Map<Segment, Op<Site>[]>();
  readonly edgeEffects = new Map<Segment, EdgeEffect[]>();
  seed: FlowState = null;
  readonly current = new Set<Segment>();

  constructor(readonly codePath: CodePath) {}

  record(op: Op<Site>): void {
    for (const segment of this.current) {
      if (!segment.reachable) continue;
      let list = this.ops.get(segment);
      if (!list) this.ops.set(segment, (list = []));
      list.push(op);
    }
  }

  addEdgeEffect(into: Iterable<Segment>, effect: Effect, exceptFrom: ReadonlySet<Segment>): void {
    for (const segment of into) {
      let list = this.edgeEffects.get(segment);
      if (!list) this.edgeEffects.set(segment, (list = []));
      list.push({ effect, exceptFrom });
    }
  }
}

export function apply(effect: Effect, state: FlowState): FlowState {
  switch (effect.kind) {
    case 'none':
      return state;
    case 'gen':
      return { eofed: new Set(), label: effect.label };
    case 'killAll':
      return null;
    case 'kill':
      if (!state || state.eofed.has(effect.family)) return state;
      return { eofed: new Set([...state.eofed, effect.family]), label: state.label };
  }
}

/** May-merge: pending if pending on any incoming path; a family counts as drained only if drained on every pending path. */
export function merge(a: FlowState, b: FlowState): FlowState {
  if (!a) return b;
  if (!b) return a;
  const eofed = new Set<Family>();
  for (const family of a.eofed) if (b.eofed.has(family)) eofed.add(family);
  return { eofed, label: a.label };
}

function same(a: FlowState, b: FlowState): boolean {
  if (!a || !b) return a === b;
  if (a.eofed.size !== b.eofed.size) return false;
  for (const family of a.eofed) if (!b.eofed.has(family)) return false;
  return true;
}

/**
 * Solves one code path to a fixed point over its segments (never enumerating paths),
 * then reports the merged state at every site and every nested code path it spawned.
 */
export function solve<Site>(
  facts: PathFacts<Site>,
  onSite: (site: Site, state: FlowState) => void,
  onSpawn: (child: CodePath, state: FlowState) => void,
): void {
  const out = new Map<Segment, FlowState>();
  const initial = facts.codePath.initialSegment;
  const entryState = (segment: Segment): FlowState => {
    if (segment === initial) return facts.seed;
    let state: FlowState = null;
    const edges = facts.edgeEffects.get(segment);
    for (const previous of segment.prevSegments) {
      let incoming = out.get(previous) ?? null;
      for (const edge of edges ?? []) if (!edge.exceptFrom.has(previous)) incoming = apply(edge.effect, incoming);
      state = merge(state, incoming);
    }
    return state;
  };
  const run = (segment: Segment, visit?: (op: Op<Site>, state: FlowState) => void): FlowState => {
    let state = entryState(segment);
    for (const op of facts.ops.get(segment) ?? []) {
      if (op.kind === 'effect') state = apply(op.effect, state);
      else visit?.(op, state);
    }
    return state;
  };

  const reachable = facts.segments.filter((segment) => segment.reachable);
  for (let changed = true; changed; ) {
    changed = false;
    for (const segment of reachable) {
      const state = run(segment);
      if (!out.has(segment) || !same(state, out.get(segment)!)) {
        out.set(segment, state);
        changed = true;
      }
    }
  }

  const siteStates = new Map<Site, FlowState>();
  const spawnStates = new Map<CodePath, FlowState>();
  for (const segment of reachable) {
    run(segment, (op, state) => {
      if (op.kind === 'site') siteStates.set(op.site, merge(siteStates.get(op.site) ?? null, state));
      else if (op.kind === 'spawn') spawnStates.set(op.child, merge(spawnStates.get(op.child) ?? null, state));
    });
  }
  for (const [site, state] of siteStates) onSite(site, state);
  for (const [child, state] of spawnStates) onSpawn(child, state);
}
