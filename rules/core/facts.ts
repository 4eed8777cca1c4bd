import type { Effect, Family } from './effect.js';

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
/** The entry of a function: nothing pending, nothing at EOF. */
export const ENTRY: Facts = { pending: null, eof: NO_FAMILIES };
/** The entry of a function called on a completion branch: the terminal event is pending, nothing has reached EOF. */
export const PENDING_AT_ENTRY: Facts = { pending: { eofed: NO_FAMILIES, label: '' }, eof: NO_FAMILIES };

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

export function same(a: FlowState, b: FlowState): boolean {
  if (!a || !b) return a === b;
  if (!sameSet(a.eof, b.eof)) return false;
  if (!a.pending || !b.pending) return a.pending === b.pending;
  return sameSet(a.pending.eofed, b.pending.eofed);
}

/**
 * The report decision of every front end: the terminal event pending at a close of `family`, or null (nothing
 * pending there, or that response was read to its end on every path since the event).
 */
export function pendingEvent(state: FlowState, family: Family): string | null {
  const pending = state?.pending;
  return pending && !pending.eofed.has(family) ? pending.label : null;
}
