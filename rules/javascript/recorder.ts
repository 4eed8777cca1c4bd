import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { brief } from '../contract/messages.js';
import type { Node } from './ast.js';
import { BranchEdges } from './branch-edges.js';
import { BranchTestClassifier } from './branch-tests.js';
import { CodePathRecorder, type CodePathListeners } from './code-paths.js';
import type { PathFacts } from './flow.js';
import { HandlerEdges } from './handler-edges.js';
import { withHelperCalls } from './helper-calls.js';
import { HelperCloses } from './helper-closes.js';
import { jumpTarget } from './jumps.js';
import { LoopEdges } from './loop-edges.js';
import { PointEffects } from './point-effects.js';
import { SiteRecorder, type RecordedSite } from './record-sites.js';
import { StreamResolver } from './streams.js';
import { makeTypeOracle } from './types.js';

// The JavaScript front end's graph building (docs/architecture.md, "The analysis core"): as ESLint walks a file, its
// listeners record ops, edge effects, sites and callbacks' starts into the segments of each code path that may hold a
// site (code-paths.ts), which flow.ts hands the core as its graph. Each kind of record has its file: the throw edges into
// a handler (handler-edges.ts), the branches' effects (branch-edges.ts), the loops' exits (loop-edges.ts), the effects at
// a point (point-effects.ts) and the sites (record-sites.ts). Here they are built for a file and joined as listeners.

/** How the rule runs on a file: its options, as far as the graph depends on them, and the pre-filter's offsets. */
export interface RecorderOptions {
  /** Where the file may hold a close (candidateOffsets, prefilter.ts): a code path without one is not tracked. */
  candidates: number[];
  closeMethods: readonly string[];
  /** The selector of close calls (closeCallSelector). */
  closeCalls: string;
  /** The terminal patterns, compiled: asked for when a test is first classified. */
  terminalPatterns: () => RegExp[];
  useTypes: boolean;
}

/** A file's graph building: the listeners that record each tracked code path, and what the solving after it reads. */
export class FlowRecorder {
  /** What the file's streams are: the sites' families, and the fix planner's view of the file's streams. */
  readonly streams: StreamResolver;
  private readonly paths: CodePathRecorder<RecordedSite>;
  private readonly handlers: HandlerEdges;
  private readonly loops: LoopEdges<RecordedSite>;
  private readonly effects: PointEffects<RecordedSite>;
  private readonly sites: SiteRecorder;
  /** `continue` and `return` matter only as implicit closes, which need a `for await`. */
  private readonly mayHaveAsyncLoops: boolean;
  private readonly closeCalls: string;
  private readonly hasHelpers: boolean;

  constructor(sourceCode: TSESLint.SourceCode, options: RecorderOptions) {
    // Calls of the functions that hold a close (and of those that call one): their code paths may reach it through the call.
    const { offsets, names: helperNames } = withHelperCalls(options.candidates, sourceCode.text, sourceCode.ast, sourceCode.visitorKeys);
    const closeMethods = new Set(options.closeMethods);
    // Native or downleveled async iteration is among the offsets found (the pre-filter matches both).
    this.mayHaveAsyncLoops = offsets.some((offset) => sourceCode.text.startsWith('for', offset) || sourceCode.text.startsWith('__asyncValues', offset));
    const typeOracle = options.useTypes ? makeTypeOracle(sourceCode.parserServices) : undefined;
    const streams = new StreamResolver({
      getScope: (node) => sourceCode.getScope(node),
      visitorKeys: sourceCode.visitorKeys,
      typeOracle,
      collectClassMembers: true,
    });
    this.streams = streams;
    const helpers = helperNames ? new HelperCloses<RecordedSite>(helperNames, streams, sourceCode) : null;
    // Built on first use: most candidate files never classify a test.
    let classifier: BranchTestClassifier | undefined;
    const tests = (): BranchTestClassifier => (classifier ??= new BranchTestClassifier(streams, options.terminalPatterns(), (node) => brief(sourceCode.getText(node))));

    this.handlers = new HandlerEdges();
    this.paths = new CodePathRecorder<RecordedSite>(offsets, this.handlers, new BranchEdges(sourceCode.text, tests), helpers);
    this.loops = new LoopEdges(this.paths, streams, tests);
    this.effects = new PointEffects(this.paths, tests);
    this.sites = new SiteRecorder(this.paths, sourceCode, streams, closeMethods, typeOracle, helpers);
    this.closeCalls = options.closeCalls;
    this.hasHelpers = helpers !== null;
  }

  /** The tracked code paths, each the core's graph of one function (flow.ts), in the order they started. */
  get codePaths(): readonly PathFacts<RecordedSite>[] {
    return this.paths.tracked;
  }

  /** ESLint's listeners that record the file; `onProgramEnd` runs once the whole file is recorded. */
  listeners(onProgramEnd: () => void): TSESLint.RuleListener {
    const { paths, loops, effects, sites, handlers, streams, mayHaveAsyncLoops } = this;
    const noteClassMember = (node: Node): void => streams.classMembers.note(node);
    const onJump = (node: TSESTree.BreakStatement | TSESTree.ContinueStatement | TSESTree.ReturnStatement): void => {
      const facts = paths.top();
      if (!facts) return;
      const target = node.type === AST_NODE_TYPES.ReturnStatement ? null : jumpTarget(node);
      if (node.type === AST_NODE_TYPES.BreakStatement && target) loops.noteBreak(facts, target);
      if (mayHaveAsyncLoops) sites.jump(node, target);
    };
    const nodeListeners: TSESLint.RuleListener = {
      WhileStatement: loops.enter,
      DoWhileStatement: loops.enter,
      ForStatement: loops.enter,
      ForOfStatement: loops.enter,
      ForInStatement: loops.enter,
      'WhileStatement:exit': loops.exit,
      'DoWhileStatement:exit': loops.exit,
      'ForStatement:exit': loops.exit,
      'ForOfStatement:exit': loops.exit,
      'ForInStatement:exit': loops.exit,
      SwitchStatement: loops.enter,
      'SwitchStatement:exit': loops.exitSwitch,
      'AssignmentExpression[operator="="][right.value=true]': effects.flagSet,
      'AssignmentExpression[left.object.type="ThisExpression"]': noteClassMember,
      PropertyDefinition: noteClassMember,
      TSParameterProperty: noteClassMember,
      'MemberExpression[property.name="signal"][object.object.type="ThisExpression"]': noteClassMember,
      // A called function that returns on the terminal event: the caller goes on from there.
      'AwaitExpression:exit': effects.awaitedCall,
      TryStatement: handlers.enterTry,
      'TryStatement:exit': handlers.exitTry,
      BreakStatement: onJump,
      // `continue` and `return` matter only as implicit closes, which need a `for await`.
      ...(mayHaveAsyncLoops ? { ContinueStatement: onJump, ReturnStatement: onJump } : {}),
      [this.closeCalls]: sites.closeCall,
    };
    if (this.hasHelpers) {
      // The selector of close calls may be `CallExpression` itself: both listeners then run, the close's first.
      const closeCalls = nodeListeners.CallExpression;
      nodeListeners.CallExpression = (node: TSESTree.CallExpression) => {
        closeCalls?.(node);
        sites.helperCall(node);
      };
    }
    return withCodePathListeners(nodeListeners, paths.listeners(onProgramEnd));
  }
}

function withCodePathListeners(nodeListeners: TSESLint.RuleListener, codePathListeners: CodePathListeners): TSESLint.RuleListener {
  return Object.assign(nodeListeners, codePathListeners);
}

/** Only calls of a close method reach the listener (ESLint matches the selector), not every call of the file. */
export function closeCallSelector(closeMethods: readonly string[]): string {
  if (!closeMethods.every((name) => /^[\w$]+$/.test(name))) return 'CallExpression';
  const names = `/^(?:${closeMethods.map((name) => name.replaceAll('$', '\\$')).join('|')})$/`;
  return `CallExpression[callee.property.name=${names}], CallExpression[callee.property.value=${names}]`;
}
