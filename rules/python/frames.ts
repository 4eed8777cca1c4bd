import type { Block, CallerClose } from './cfg.js';
import type { Node } from './parser.js';

/**
 * What closes a response when a function stops reading it, from outside the function: the `with` of
 * an enclosing function that owns the response a nested generator reads (`with client.stream(...) as
 * response:` around `def events(): ... return`), or a caller that closes the response it passed in
 * once the call is over.
 */
export interface OuterCloser {
  /** The name the function reads the response by (a closure variable, a parameter, `self.response`). */
  stream: string;
  /** How the close is named in the report: "the `with` of `generate`", "the caller `ask` (line 12)". */
  by: string;
  /**
   * For a caller's close: the call that passed the stream, what it passed (`response`, `response.iter_lines()`), and
   * the response the caller holds (where a drain after the call can reach it).
   */
  caller?: CallerClose;
  /** The caller drains what it passed after the call (a drain helper, `read()`), before it closes: no early close. */
  drains?: boolean;
}

export type LoopFrame = {
  kind: 'loop';
  node: Node;
  isFor: boolean;
  /** The loop iterates a response stream or what derives from it (leaving it leaves the body). */
  readsStream: boolean;
  breakTo: Block;
  continueTo: Block;
  /**
   * The loop iterates a call of a generator of the module that owns a response (`async for item in events(...)`,
   * `events` reading inside `async with client.stream(...)`): leaving the loop closes that generator unfinished, and
   * its `with` closes the response.
   */
  producer?: { stream: string; by: string };
};
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
  /** For a caller's close: its call, what it passed, the response it holds. */
  caller?: CallerClose;
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
  for (let i = limit - 1 + (jump === 'break' ? 1 : 0); i >= 0; i--) {
    const frame = frames[i];
    let closer: JumpClose | null = null;
    if (frame.kind === 'loop') {
      // The loop left is over a generator that owns a response: leaving it closes the generator, and its `with` the response.
      if (frame.producer && frame.isFor && (jump === 'return' || i === loopIndex)) return { stream: frame.producer.stream, method: 'producer', by: frame.producer.by };
      continue;
    }
    if (frame.kind === 'with' && frame.owns) {
      const method = frame.isAsync ? 'async with' : 'with';
      closer = { stream: frame.owns, method, by: `its \`${method}\`` };
    } else if (frame.kind === 'finally' && frame.closes) closer = { stream: frame.closes, method: 'finally', by: 'its `finally`' };
    else if (frame.kind === 'outer' && !frame.closer.drains) closer = { stream: frame.closer.stream, method: 'outer', by: frame.closer.by, caller: frame.closer.caller };
    if (!closer) continue;
    // The loop left must be inside the owner; leaving a `with` (or the function, for an outer close) closes the
    // body only if the loop read it (a `finally` that closes a response is evidence enough that the loop in its `try` reads it).
    const left = jump === 'break' ? [loop] : frames.slice(i + 1).filter((f): f is LoopFrame => f.kind === 'loop' && f.isFor);
    if (left.length === 0 || (frame.kind !== 'finally' && !left.some((f) => f.readsStream))) continue;
    return closer;
  }
  return null;
}
