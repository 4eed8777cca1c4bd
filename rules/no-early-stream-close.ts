import type { Rule } from 'eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, isFunction, isLoop, propertyName, unwrap, type Node } from './analysis/ast.js';
import { BranchTestClassifier, type Effect } from './analysis/branch-tests.js';
import { isLexicallyExempt } from './analysis/exempt.js';
import { PathFacts, solve } from './analysis/flow.js';
import { DEFAULT_CLOSE_METHODS, closeCandidatePattern } from './analysis/prefilter.js';
import { StreamResolver, type Family } from './analysis/streams.js';
import { makeTypeOracle } from './analysis/types.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from './analysis/words.js';

export interface RuleOptions {
  terminalPatterns: string[];
  closeMethods: string[];
  useTypes: boolean;
}

export const DOCS_URL = 'https://github.com/drainguard/drainguard/blob/main/docs/rules/no-early-stream-close.md';

interface Site {
  node: Node;
  family: Family;
  messageId: 'explicitClose' | 'implicitClose';
  data: Record<string, string>;
  receiver: Node;
}

type CodePath = Rule.CodePath;
type Segment = Rule.CodePathSegment;

function brief(text: string, limit = 48): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

const rule: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow closing a streamed HTTP response right after its terminal event instead of draining it to EOF',
      recommended: true,
      url: DOCS_URL,
    },
    schema: [
      {
        type: 'object',
        properties: {
          terminalPatterns: {
            description: 'Regular expressions (case-insensitive, tested on the snake_case words of names and strings) that recognise a completion in a branch test; replaces the defaults.',
            type: 'array',
            items: { type: 'string', minLength: 1 },
            uniqueItems: true,
          },
          closeMethods: {
            description: 'Method names whose call on a response stream, its reader, iterator or AbortController closes it.',
            type: 'array',
            items: { type: 'string', minLength: 1 },
            uniqueItems: true,
          },
          useTypes: {
            description: 'Use type information, when the parser provides it, to find response streams by type and to confirm close receivers.',
            type: 'boolean',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ terminalPatterns: [...DEFAULT_TERMINAL_PATTERNS], closeMethods: [...DEFAULT_CLOSE_METHODS], useTypes: false }],
    messages: {
      explicitClose:
        '`{{stream}}` is closed with `{{method}}()` after the terminal event `{{event}}` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).',
      implicitClose:
        '`{{statement}}` leaves `for await` over `{{stream}}` after the terminal event `{{event}}` before EOF: leaving the loop cancels the body and destroys the keep-alive connection. Keep reading to EOF with a time budget instead (`drainguard fix`).',
    },
  },

  create(context) {
    const options = context.options[0] as RuleOptions;
    const sourceCode = context.sourceCode;
    if (!closeCandidatePattern(options.closeMethods).test(sourceCode.text)) return {};

    const closeMethods = new Set(options.closeMethods);
    const typeOracle = options.useTypes ? makeTypeOracle(sourceCode.parserServices) : undefined;
    const streams = new StreamResolver({
      getScope: (node) => sourceCode.getScope(node as never) as never,
      visitorKeys: sourceCode.visitorKeys as Record<string, readonly string[]>,
      typeOracle,
    });
    const tests = new BranchTestClassifier(streams, compilePatterns(options.terminalPatterns), (node) =>
      brief(sourceCode.getText(node as never)),
    );

    const stack: PathFacts<Site>[] = [];
    const allFacts: PathFacts<Site>[] = [];
    const factsByPath = new Map<CodePath, PathFacts<Site>>();
    const entryEffects = new Map<Node, Effect>();
    const loopBreaks = new Map<Node, Set<Segment>>();
    const consequentEnds = new Map<Node, Set<Segment>>();
    const top = (): PathFacts<Site> => stack[stack.length - 1]!;

    const applyEntryEffect = (node: Node): void => {
      const effect = entryEffects.get(node);
      if (!effect) return;
      entryEffects.delete(node);
      if (effect.kind !== 'none') top().record({ kind: 'effect', effect });
    };
    const setEntryEffect = (node: Node | null | undefined, effect: Effect): void => {
      if (node && effect.kind !== 'none') entryEffects.set(node, effect);
    };

    const recordSite = (site: Site): void => {
      if (isLexicallyExempt(site.node)) return;
      if (typeOracle?.confirmsReceiver(site.receiver) === false) return;
      top().record({ kind: 'site', site });
    };

    const onLoopEnter = (loop: Node): void => {
      loopBreaks.set(loop, new Set());
    };
    const onLoopExit = (loop: Node): void => {
      const breaks = loopBreaks.get(loop) ?? new Set<Segment>();
      loopBreaks.delete(loop);
      let effect: Effect = { kind: 'none' };
      if (loop.type === 'ForOfStatement') {
        const family = streams.asyncLoopFamily(loop);
        if (family) effect = { kind: 'kill', family };
      } else if (loop.type === 'WhileStatement' || loop.type === 'DoWhileStatement' || loop.type === 'ForStatement') {
        effect = tests.classify(loop.test).neg;
      }
      if (effect.kind !== 'none') top().addEdgeEffect(top().current, effect, breaks);
    };

    const onJump = (node: TSESTree.BreakStatement | TSESTree.ContinueStatement | TSESTree.ReturnStatement): void => {
      applyEntryEffect(node);
      const target = node.type === 'ReturnStatement' ? null : jumpTarget(node);
      if (node.type === 'BreakStatement' && target) {
        const breaks = loopBreaks.get(target);
        if (breaks) for (const segment of top().current) breaks.add(segment);
      }
      const loop = innermostLeftAsyncLoop(node, target);
      if (!loop) return;
      const family = streams.asyncLoopFamily(loop);
      if (!family) return;
      const iterable = iteratedExpression(loop);
      recordSite({
        node,
        family,
        receiver: iterable as Node,
        messageId: 'implicitClose',
        data: { statement: node.type === 'ReturnStatement' ? 'return' : node.type === 'BreakStatement' ? 'break' : 'continue', stream: brief(sourceCode.getText(iterable as never)) },
      });
    };

    const solveAll = (): void => {
      for (const facts of allFacts) {
        solve(
          facts,
          (site, state) => {
            const pending = state?.pending;
            if (!pending || pending.eofed.has(site.family)) return;
            context.report({ node: site.node as never, messageId: site.messageId, data: { ...site.data, event: pending.label } });
          },
          (child, state) => {
            const childFacts = factsByPath.get(child);
            if (childFacts) childFacts.seed = state;
          },
        );
      }
    };

    const listeners: Rule.RuleListener = {
      onCodePathStart(codePath: CodePath, node: Node) {
        const facts = new PathFacts<Site>(codePath);
        const parent = stack[stack.length - 1];
        if (parent && inheritsState(node as Node)) parent.record({ kind: 'spawn', child: codePath });
        stack.push(facts);
        allFacts.push(facts);
        factsByPath.set(codePath, facts);
      },
      onCodePathEnd(_codePath: CodePath, node: Node) {
        stack.pop();
        if (node.type === 'Program') solveAll();
      },
      onCodePathSegmentStart(segment: Segment) {
        top().segments.push(segment);
        top().current.add(segment);
      },
      onCodePathSegmentEnd(segment: Segment) {
        top().current.delete(segment);
      },
      onUnreachableCodePathSegmentStart(segment: Segment) {
        top().segments.push(segment);
        top().current.add(segment);
      },
      onUnreachableCodePathSegmentEnd(segment: Segment) {
        top().current.delete(segment);
      },
      '*'(node: Node) {
        applyEntryEffect(node);
      },
      IfStatement(node: TSESTree.IfStatement) {
        const effects = tests.classify(node.test);
        setEntryEffect(node.consequent, effects.pos);
        setEntryEffect(node.alternate, effects.neg);
        if (!node.alternate && effects.neg.kind !== 'none') consequentEnds.set(node, new Set());
      },
      'IfStatement > .consequent:exit'(node: Node) {
        const ends = consequentEnds.get(node.parent!);
        if (ends) for (const segment of top().current) ends.add(segment);
      },
      'IfStatement:exit'(node: TSESTree.IfStatement) {
        const ends = consequentEnds.get(node);
        if (!ends) return;
        consequentEnds.delete(node);
        top().addEdgeEffect(top().current, tests.classify(node.test).neg, ends);
      },
      ConditionalExpression(node: TSESTree.ConditionalExpression) {
        const effects = tests.classify(node.test);
        setEntryEffect(node.consequent, effects.pos);
        setEntryEffect(node.alternate, effects.neg);
      },
      LogicalExpression(node: TSESTree.LogicalExpression) {
        if (node.operator === '??') return;
        const effects = tests.classify(node.left);
        setEntryEffect(node.right, node.operator === '&&' ? effects.pos : effects.neg);
      },
      SwitchCase(node: TSESTree.SwitchCase) {
        if (node.test && node.consequent[0]) setEntryEffect(node.consequent[0], tests.classify(node.test).pos);
      },
      WhileStatement: onLoopEnter,
      DoWhileStatement: onLoopEnter,
      ForStatement: onLoopEnter,
      ForOfStatement: onLoopEnter,
      ForInStatement: onLoopEnter,
      'WhileStatement:exit': onLoopExit,
      'DoWhileStatement:exit': onLoopExit,
      'ForStatement:exit': onLoopExit,
      'ForOfStatement:exit': onLoopExit,
      'ForInStatement:exit': onLoopExit,
      SwitchStatement: onLoopEnter,
      'SwitchStatement:exit'(node: Node) {
        loopBreaks.delete(node);
      },
      AssignmentExpression(node: TSESTree.AssignmentExpression) {
        applyEntryEffect(node);
        const label = tests.flagSetTo(node);
        if (label) top().record({ kind: 'effect', effect: { kind: 'gen', label } });
      },
      BreakStatement: onJump,
      ContinueStatement: onJump,
      ReturnStatement: onJump,
      CallExpression(node: TSESTree.CallExpression) {
        applyEntryEffect(node);
        const callee = unwrap(node.callee);
        if (callee?.type !== 'MemberExpression') return;
        const method = propertyName(callee);
        if (!method || !closeMethods.has(method)) return;
        const receiver = callee.object as Node;
        const family = method === 'terminate' ? streams.transformControllerFamily(receiver) : streams.familyOf(receiver);
        if (!family) return;
        recordSite({
          node,
          family,
          receiver,
          messageId: 'explicitClose',
          data: { stream: brief(sourceCode.getText(receiver as never)), method },
        });
      },
    } as unknown as Rule.RuleListener;
    return listeners;
  },
};

export default rule;

/** Function expressions and arrows start from the state where they are written (a callback in a completion branch); declarations and methods do not. */
function inheritsState(node: Node): boolean {
  if (node.type !== 'ArrowFunctionExpression' && node.type !== 'FunctionExpression') return false;
  const parent = node.parent;
  return parent?.type !== 'MethodDefinition' && parent?.type !== 'Property' && parent?.type !== 'PropertyDefinition';
}

/** The statement a `break`/`continue` transfers to. */
export function jumpTarget(node: TSESTree.BreakStatement | TSESTree.ContinueStatement): Node | null {
  for (let current = node.parent as Node | undefined; current; current = current.parent) {
    if (isFunction(current)) return null;
    if (node.label) {
      if (current.type === 'LabeledStatement' && current.label.name === node.label.name) return current.body as Node;
    } else if (isLoop(current) || (node.type === 'BreakStatement' && current.type === 'SwitchStatement')) {
      return current;
    }
  }
  return null;
}

/** The innermost async-iteration loop that the jump leaves (return leaves all in the function; continue to the loop itself leaves none). */
export function innermostLeftAsyncLoop(node: Node, target: Node | null): Node | null {
  const isReturn = node.type === 'ReturnStatement';
  for (let current = node.parent as Node | undefined; current; current = current.parent) {
    if (isFunction(current)) return null;
    const leaves = isReturn || node.type === 'BreakStatement' || current !== target;
    if (isAsyncLoop(current) && leaves) return current;
    if (!isReturn && current === target) return null;
  }
  return null;
}

function isAsyncLoop(node: Node): boolean {
  if (node.type === 'ForOfStatement') return node.await;
  return downleveledAsyncValues(node) !== null;
}

/** `__asyncValues(x)` (or `tslib_1.__asyncValues(x)`, `(0, tslib_1.__asyncValues)(x)`) in the init of a downleveled `for await`. */
function downleveledAsyncValues(node: Node): TSESTree.CallExpression | null {
  if (node.type !== 'ForStatement' || node.init?.type !== 'VariableDeclaration') return null;
  for (const declarator of node.init.declarations) {
    const init = unwrap(declarator.init);
    if (init?.type === 'CallExpression' && calleeName(init.callee) === '__asyncValues') return init;
  }
  return null;
}

/** The stream a `for await` iterates, as written: `x` of `for await (… of x)` or the `__asyncValues(x)` argument. */
function iteratedExpression(loop: Node): Node {
  if (loop.type === 'ForOfStatement') return loop.right;
  const call = downleveledAsyncValues(loop);
  const argument = call?.arguments[0];
  return argument && argument.type !== 'SpreadElement' ? argument : loop;
}
