import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { Effect } from '../core/effect.js';
import { unwrap } from './ast.js';
import type { BranchTestClassifier } from './branch-tests.js';
import type { CodePathRecorder } from './code-paths.js';
import { memo } from './memo.js';

/**
 * Effects recorded at a point of the open segments, not on an edge: a completion flag set (`done = true`, which
 * branch-tests.ts names when the flag is one) and an awaited call of a function of the file that returns on the
 * terminal event (the caller goes on from there). Both classified only if the code path is ever solved.
 */
export class PointEffects<Site> {
  constructor(
    private readonly paths: Pick<CodePathRecorder<Site>, 'top'>,
    /** The file's classifier of tests, built on first use. */
    private readonly tests: () => BranchTestClassifier,
  ) {}

  /** The listener of `x = true`. */
  readonly flagSet = (node: TSESTree.AssignmentExpression): void => {
    this.paths.top()?.record({
      kind: 'effect',
      effect: {
        kind: 'deferred',
        resolve: () => {
          const label = this.tests().flagSetTo(node);
          return label ? { kind: 'gen', label } : { kind: 'none' };
        },
      },
    });
  };

  /** The listener of an `await` left: a called function that returns on the terminal event. */
  readonly awaitedCall = (node: TSESTree.AwaitExpression): void => {
    const call = node.argument;
    if (call.type !== AST_NODE_TYPES.CallExpression || !mayCallLocalFunction(call)) return;
    this.paths.top()?.record({
      kind: 'effect',
      effect: {
        kind: 'deferred',
        resolve: memo((): Effect => {
          const label = this.tests().terminalReturnOf(call);
          return label ? { kind: 'gen', label } : { kind: 'none' };
        }),
      },
    });
  };
}

/** `f(…)`, `this.f(…)`, `x.f(…)`: a call that calledFunction may resolve (not `a.b.f(…)` or `f()(…)`). */
function mayCallLocalFunction(call: TSESTree.CallExpression): boolean {
  const callee = unwrap(call.callee);
  if (callee?.type === AST_NODE_TYPES.Identifier) return true;
  const object = callee?.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : null;
  return object?.type === AST_NODE_TYPES.Identifier || object?.type === AST_NODE_TYPES.ThisExpression;
}
