import type { TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { Effect } from '../core/effect.js';
import type { Node } from './ast.js';
import type { PathFacts } from './flow.js';

type Segment = TSESLint.CodePathSegment;

const KILL_ALL: Effect = { kind: 'killAll' };

/**
 * The throw edges into a `catch` or `finally`: an error or the consumer stopping (an exempt path) leaves nothing
 * pending there. Fed by the segments' starts (code-paths.ts) and by the `try` statements around them (`enterTry`, `exitTry`).
 */
export class HandlerEdges {
  /** The segments started inside a `try`: where a throw edge into its handler can also go on. */
  private readonly startedSegments = new Set<Segment>();
  private readonly handlerSegments = new Set<Segment>();
  private openTries = 0;

  readonly enterTry = (): void => {
    this.openTries++;
  };

  readonly exitTry = (): void => {
    this.openTries--;
  };

  segmentStart<Site>(facts: PathFacts<Site>, segment: Segment, node: Node): void {
    if (isHandlerBlock(node)) {
      this.handlerSegments.add(segment);
      // An edge into a `catch` or `finally` from a segment that also goes on inside the `try` is one of ESLint's throw
      // and abrupt-resumption edges (at the first throwable node, at a generator's `yield`): an error or the consumer
      // stopping, exempt paths. The edges of normal completion, `return` and `break` lead only into the handler.
      for (const previous of segment.prevSegments) {
        if (previous.nextSegments.some((next) => next !== segment && this.startedSegments.has(next) && !this.handlerSegments.has(next))) {
          facts.addEdgeEffectFrom(previous, segment, KILL_ALL);
        }
      }
    }
    // Only a segment inside a `try` can be where a throw edge into its handler also goes on.
    if (this.openTries > 0) this.startedSegments.add(segment);
  }
}

/** The block of a `catch` clause or of a `finally`, where ESLint starts the segments that errors and early returns reach. */
function isHandlerBlock(node: Node): boolean {
  return node.type === AST_NODE_TYPES.CatchClause || (node.parent?.type === AST_NODE_TYPES.TryStatement && node.parent.finalizer === node);
}
