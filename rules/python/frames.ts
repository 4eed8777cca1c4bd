import type { Block } from './cfg.js';
import type { Node } from './parser.js';

/**
 * What closes a response when a function stops reading it, from outside the function: the `with` of
 * an enclosing function that owns the response a nested generator reads (`with client.stream(...) as
 * response:` around `def events(): ... return`), or a caller that closes the response it passed in
 * once the call is over.
 */
export interface OuterCloser {
  /** The name the function reads the response by (a closure variable or a parameter). */
  stream: string;
  /** How the close is named in the report: "the `with` of `generate`", "the caller `ask` (line 12)". */
  by: string;
}

export type LoopFrame = { kind: 'loop'; node: Node; isFor: boolean; readsStream: boolean; breakTo: Block; continueTo: Block };
export type FinallyFrame = { kind: 'finally'; entry: Block; exits: Block[]; closes: string | null };

/** One enclosing construct, innermost last, while a function's graph is built. */
export type Frame =
  | LoopFrame
  | FinallyFrame
  | { kind: 'with'; owns: string | null; isAsync: boolean }
  /** A close from outside the function, around all of it (see OuterCloser). */
  | { kind: 'outer'; closer: OuterCloser };

/** What a jump's implicit close closes, and how the report names it. */
export interface JumpClose {
  stream: string;
  method: string;
  by: string;
}

/** Where the innermost loop is in `frames`; -1 outside every loop. */
export function innermostLoop(frames: readonly Frame[]): number {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].kind === 'loop') return i;
  return -1;
}

/**
 * A `break`/`return` that leaves a `for` loop and with it an `async with`/`with` that owns a
 * response, or leaves it towards a `finally` that closes one: the response is closed right there.
 */
export function jumpClose(frames: readonly Frame[], jump: 'break' | 'return'): JumpClose | null {
  const loopIndex = jump === 'break' ? innermostLoop(frames) : frames.findIndex((frame) => frame.kind === 'loop' && frame.isFor);
  const loop = frames[loopIndex];
  if (loop?.kind !== 'loop' || !loop.isFor) return null;
  // For a return every enclosing frame is left; a loop inside the owner is enough. For a break, the owner must enclose the loop.
  const limit = jump === 'return' ? frames.length : loopIndex;
  for (let i = limit - 1; i >= 0; i--) {
    const frame = frames[i];
    let closer: JumpClose | null = null;
    if (frame.kind === 'with' && frame.owns) {
      const method = frame.isAsync ? 'async with' : 'with';
      closer = { stream: frame.owns, method, by: `its \`${method}\`` };
    } else if (frame.kind === 'finally' && frame.closes) closer = { stream: frame.closes, method: 'finally', by: 'its `finally`' };
    else if (frame.kind === 'outer') closer = { stream: frame.closer.stream, method: 'outer', by: frame.closer.by };
    if (!closer) continue;
    // The loop left must be inside the owner; leaving a `with` (or the function, for an outer close) closes the
    // body only if the loop read it (a `finally` that closes a response is evidence enough that the loop in its `try` reads it).
    const left = jump === 'break' ? [loop] : frames.slice(i + 1).filter((f): f is LoopFrame => f.kind === 'loop' && f.isFor);
    if (left.length === 0 || (frame.kind !== 'finally' && !left.some((f) => f.readsStream))) continue;
    return closer;
  }
  return null;
}
