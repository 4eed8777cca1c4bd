import type { TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { Effect } from '../core/effect.js';
import type { Node } from './ast.js';
import type { BranchTestClassifier } from './branch-tests.js';
import type { PathFacts } from './flow.js';

type Segment = TSESLint.CodePathSegment;

/**
 * The effects of taking a branch: a segment that starts at a branch (consequent, alternate, right operand, case body)
 * carries its test's effect, and the segment after an `if` without `else` takes the negation on the edges from the test
 * when the test holds one (`!`, `!==`). Fed by the segments' starts and ends (code-paths.ts).
 */
export class BranchEdges {
  /** Per `if` without `else` whose test holds a negation: the segments its consequent ended in. */
  private readonly consequentEnds = new Map<Node, Set<Segment>>();

  constructor(
    private readonly text: string,
    /** The file's classifier of tests, built on first use. */
    private readonly tests: () => BranchTestClassifier,
  ) {}

  segmentStart<Site>(facts: PathFacts<Site>, segment: Segment, node: Node): void {
    const branch = branchOf(node);
    if (branch) {
      facts.recordIn(segment, { kind: 'effect', effect: this.effect(branch.test, branch.polarity) });
      const parent = node.parent!;
      // Only a negation (`!`, `!==`) gives the fall-through after an `if` without `else` an effect of its own.
      if (parent.type === AST_NODE_TYPES.IfStatement && !parent.alternate && node === parent.consequent && hasNegation(this.text, parent.test.range)) {
        this.consequentEnds.set(parent, new Set());
      }
    } else if (node.type === AST_NODE_TYPES.IfStatement) {
      // The segment after an `if` without `else`: edges from the test (not from the consequent) take the negation.
      const ends = this.consequentEnds.get(node);
      if (ends) {
        this.consequentEnds.delete(node);
        facts.addEdgeEffect([segment], this.effect(node.test, 'neg'), ends);
      }
    }
  }

  segmentEnd(segment: Segment, node: Node): void {
    // Segments still open when an `if` is left are the ends of its consequent (the false edges ended at the test).
    this.consequentEnds.get(node)?.add(segment);
  }

  /** The effect of taking `polarity` of `test`, classified only if the code path is ever solved. */
  private effect(test: Node, polarity: 'pos' | 'neg'): Effect {
    return { kind: 'deferred', resolve: () => this.tests().classify(test)[polarity] };
  }
}

/** The test and polarity of the branch that `node` starts, if it starts one. */
function branchOf(node: Node): { test: Node; polarity: 'pos' | 'neg' } | null {
  const parent = node.parent;
  switch (parent?.type) {
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.ConditionalExpression:
      if (node === parent.consequent) return { test: parent.test, polarity: 'pos' };
      if (node === parent.alternate) return { test: parent.test, polarity: 'neg' };
      return null;
    case AST_NODE_TYPES.LogicalExpression:
      if (node !== parent.right || parent.operator === '??') return null;
      return { test: parent.left, polarity: parent.operator === '&&' ? 'pos' : 'neg' };
    case AST_NODE_TYPES.SwitchCase:
      return parent.test && parent.consequent[0] === node ? { test: parent.test, polarity: 'pos' } : null;
    default:
      return null;
  }
}

function hasNegation(text: string, [start, end]: readonly [number, number]): boolean {
  const index = text.indexOf('!', start);
  return index !== -1 && index < end;
}
