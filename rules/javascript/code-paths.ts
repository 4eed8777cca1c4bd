import type { TSESLint } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { Node } from './ast.js';
import type { BranchEdges } from './branch-edges.js';
import { PathFacts } from './flow.js';
import type { HandlerEdges } from './handler-edges.js';
import { hasOffsetWithin } from './prefilter.js';

type CodePath = TSESLint.CodePath;
type Segment = TSESLint.CodePathSegment;

/**
 * ESLint's code path events: typescript-eslint's `RuleListener` types only node listeners, whose one-parameter
 * signature these do not fit, so they are typed here and joined to the node listeners by the recorder (recorder.ts).
 */
export interface CodePathListeners {
  onCodePathStart(codePath: CodePath, node: Node): void;
  onCodePathEnd(codePath: CodePath, node: Node): void;
  onCodePathSegmentStart(segment: Segment, node: Node): void;
  onCodePathSegmentEnd(segment: Segment, node: Node): void;
}

/**
 * The code paths of a file as ESLint walks it, each one that may hold a site tracked as a `PathFacts` (the core's
 * graph, flow.ts): which path is open, which segments of it are open at the traversal point, and what a segment's
 * start records (the throw edges into a handler, a branch's effect).
 */
export class CodePathRecorder<Site> {
  /** `null` for a code path that holds no candidate offset: it can hold no site, so it is not tracked. */
  private readonly open: Array<PathFacts<Site> | null> = [];
  /** Every tracked code path, in the order they started: one that inherits another's state comes after it. */
  readonly tracked: PathFacts<Site>[] = [];

  constructor(
    /** The candidate offsets of the file (prefilter.ts), with its helpers' calls. */
    private readonly offsets: readonly number[],
    private readonly handlers: HandlerEdges,
    private readonly branches: BranchEdges,
    /** The file's helpers, if it has any: they keep the code paths of their functions. */
    private readonly helpers: { noteCodePath(node: Node, facts: PathFacts<Site>): void } | null,
  ) {}

  /** The code path open at the traversal point, if it is tracked. */
  top(): PathFacts<Site> | null {
    return this.open[this.open.length - 1] ?? null;
  }

  /** ESLint's code path listeners; `onProgramEnd` runs when the Program's code path ends, the last event of the file. */
  listeners(onProgramEnd: () => void): CodePathListeners {
    return {
      onCodePathStart: (codePath: CodePath, node: Node) => {
        if (node.type !== AST_NODE_TYPES.Program && !hasOffsetWithin(this.offsets, node.range[0], node.range[1])) {
          this.open.push(null);
          return;
        }
        const enclosing = this.top();
        const inherits = enclosing !== null && inheritsState(node);
        const facts = new PathFacts<Site>(codePath, inherits ? enclosing : null);
        if (inherits) enclosing.record({ kind: 'spawn', child: facts });
        this.open.push(facts);
        this.tracked.push(facts);
        this.helpers?.noteCodePath(node, facts);
      },
      onCodePathEnd: (_codePath: CodePath, node: Node) => {
        this.open.pop();
        if (node.type === AST_NODE_TYPES.Program) onProgramEnd();
      },
      onCodePathSegmentStart: (segment: Segment, node: Node) => {
        const facts = this.top();
        if (!facts) return;
        facts.current.add(segment);
        this.handlers.segmentStart(facts, segment, node);
        this.branches.segmentStart(facts, segment, node);
      },
      onCodePathSegmentEnd: (segment: Segment, node: Node) => {
        const facts = this.top();
        if (!facts) return;
        facts.current.delete(segment);
        this.branches.segmentEnd(segment, node);
      },
    };
  }
}

/** Callbacks start from the state where they are written (a callback in a completion branch); declarations, methods, IIFEs and stored functions do not. */
function inheritsState(node: Node): boolean {
  if (node.type !== AST_NODE_TYPES.ArrowFunctionExpression && node.type !== AST_NODE_TYPES.FunctionExpression) return false;
  const parent = node.parent;
  // A callback handed to a call runs after the point where it is written; an IIFE or a stored function need not.
  return (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) && parent.callee !== node;
}
