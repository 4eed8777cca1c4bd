import type { TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { Effect } from '../core/effect.js';
import { asyncLoopIterable, type Node } from './ast.js';
import type { BranchTestClassifier } from './branch-tests.js';
import type { CodePathRecorder } from './code-paths.js';
import type { PathFacts } from './flow.js';
import { memo } from './memo.js';
import type { StreamResolver } from './streams.js';

type Segment = TSESLint.CodePathSegment;

/**
 * The effect of leaving a loop other than by `break`: a `for await` that ran out (EOF of the stream it reads, or the
 * terminal event where a generator returns on it), a `while`/`for` whose test failed (its negation). It is put on the
 * edges into the segments after the loop from every segment but those a `break` of it ended in (`noteBreak`). A
 * `switch` is entered too: a `break` may target it.
 */
export class LoopEdges<Site> {
  /** Per loop (or `switch`) of a tracked code path being walked: the segments its `break`s ended in. */
  private readonly loopBreaks = new Map<Node, Set<Segment>>();

  constructor(
    private readonly paths: Pick<CodePathRecorder<Site>, 'top'>,
    private readonly streams: StreamResolver,
    /** The file's classifier of tests, built on first use. */
    private readonly tests: () => BranchTestClassifier,
  ) {}

  readonly enter = (loop: Node): void => {
    if (this.paths.top()) this.loopBreaks.set(loop, new Set());
  };

  readonly exit = (loop: Node): void => {
    const facts = this.paths.top();
    if (!facts) return;
    const breaks = this.loopBreaks.get(loop) ?? new Set<Segment>();
    this.loopBreaks.delete(loop);
    let effect: Effect | null = null;
    const iterable = asyncLoopIterable(loop);
    if (iterable) {
      effect = {
        kind: 'deferred',
        resolve: memo((): Effect => {
          // A generator that returns on the terminal event ran out there, not at EOF.
          const label = this.tests().terminalReturnOf(iterable);
          if (label) return { kind: 'gen', label };
          const family = this.streams.asyncLoopFamily(loop);
          return family ? { kind: 'kill', family } : { kind: 'none' };
        }),
      };
    } else if ((loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement || loop.type === AST_NODE_TYPES.ForStatement) && loop.test) {
      const test = loop.test;
      effect = { kind: 'deferred', resolve: () => this.tests().classify(test).neg };
    }
    if (effect) facts.addEdgeEffect(facts.current, effect, breaks);
  };

  readonly exitSwitch = (node: Node): void => {
    this.loopBreaks.delete(node);
  };

  /** A `break` to `target`: the segments open at it take no effect of leaving the loop. */
  noteBreak(facts: PathFacts<Site>, target: Node): void {
    const breaks = this.loopBreaks.get(target);
    if (breaks) for (const segment of facts.current) breaks.add(segment);
  }
}
