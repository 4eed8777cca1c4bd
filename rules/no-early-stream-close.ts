import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { asyncLoopIterable, propertyName, unwrap, type Node } from './javascript/ast.js';
import { BranchTestClassifier } from './javascript/branch-tests.js';
import type { Effect, Family } from './core/effect.js';
import { isLexicallyExempt } from './javascript/exempt.js';
import { PathFacts, solve } from './javascript/flow.js';
import { calleeText, withHelperCalls } from './javascript/helper-calls.js';
import { HelperCloses, type HelperReach } from './javascript/helper-closes.js';
import { DRAIN_HAND_OFF_METHOD } from './javascript/hand-off.js';
import { innermostLeftAsyncLoop, jumpAfterClose, jumpTarget } from './javascript/jumps.js';
import { DEFAULT_CLOSE_METHODS, candidateOffsets, closeCandidatePattern, hasOffsetWithin } from './javascript/prefilter.js';
import { locationOf, siteAt, type StreamSite } from './javascript/site.js';
import { StreamResolver, isUnseenController } from './javascript/streams.js';
import { makeTypeOracle } from './javascript/types.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from './javascript/words.js';
import { DEFAULT_DRAIN_TIMEOUT_MS } from './contract/drain-options.js';
import { DOCS_URL, MESSAGES, brief, type CloseKind, type MessageIds } from './contract/messages.js';
import type { Options, RuleOptions } from './contract/rule-options.js';
import { asESLintLanguageOptions } from './eslint-types.js';
import { suggestedEdits, type SuggestedRewrite, type SuggestionContext } from './fix/suggest.js';
import type { RuleHooks } from './lint-sites.js';
import { parseErrorOf, statementsApartCheck, verificationLanguageOptions } from './parse-check.js';

interface Site {
  node: Node;
  /** Which response the close belongs to; resolved after the traversal (class fields may be assigned later in the file). */
  family: () => Family | null;
  messageId: CloseKind;
  data: Record<string, string>;
  /** Data of the message known only once the family is (what a helper's call reaches). */
  describe?: () => Record<string, string>;
  receiver: Node;
  /** The close method of an explicit close. */
  method?: string;
  /** A jump that adds no close of its own: the stream it leaves was already closed just before it (reported there). */
  closedBefore?: () => boolean;
  /** A call of a helper: what it reaches (resolved with the family). */
  reach?: () => HelperReach | null;
}

type CodePath = TSESLint.CodePath;
type Segment = TSESLint.CodePathSegment;
type SourceCode = TSESLint.SourceCode;
type RuleContext = Readonly<TSESLint.RuleContext<MessageIds, Options>>;

/**
 * ESLint's code path events: typescript-eslint's `RuleListener` types only node listeners, whose one-parameter
 * signature these do not fit, so they are typed here and joined to the node listeners by `withCodePathListeners`.
 */
interface CodePathListeners {
  onCodePathStart(codePath: CodePath, node: Node): void;
  onCodePathEnd(codePath: CodePath, node: Node): void;
  onCodePathSegmentStart(segment: Segment, node: Node): void;
  onCodePathSegmentEnd(segment: Segment, node: Node): void;
}

function withCodePathListeners(nodeListeners: TSESLint.RuleListener, codePathListeners: CodePathListeners): TSESLint.RuleListener {
  return Object.assign(nodeListeners, codePathListeners);
}

const defaultRuleOptions: RuleOptions = { terminalPatterns: [...DEFAULT_TERMINAL_PATTERNS], closeMethods: [...DEFAULT_CLOSE_METHODS], useTypes: false };

/**
 * The rule, with hooks for drainguard's own runs of it (`drainguard fix` and the verification of a rewrite take the
 * sites it reports through `onReport`). A typed rule module written out, not built with RuleCreator: ESLint merges
 * meta.defaultOptions into context.options itself, and RuleCreator's wrapper would clone the defaults again for every
 * file (structuredClone), which doubled the rule's cost on the corpus. `docs.recommended` is ESLint's flag (the rule is
 * in `drainguard.configs.recommended`).
 */
export function createNoEarlyStreamClose(hooks: RuleHooks = {}): TSESLint.RuleModule<MessageIds, Options, { recommended: boolean }> {
  return { meta, defaultOptions: [defaultRuleOptions], create: (context) => create(context, hooks) };
}

const meta: TSESLint.RuleMetaData<MessageIds, { recommended: boolean }, Options> = {
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
  hasSuggestions: true,
  defaultOptions: [defaultRuleOptions],
  messages: MESSAGES,
};

function create(context: RuleContext, hooks: RuleHooks): TSESLint.RuleListener {
  const options = optionsOf(context);
  const sourceCode = contextField(context, 'sourceCode');
  // Offsets of close method names and `for await`: a file without one costs nothing more, and so does each function without one.
  const matchers = closeMethodMatchers.get(options.closeMethods);
  const candidates = candidateOffsets(sourceCode.text, matchers.candidates);
  if (candidates.length === 0) return {};
  // Calls of the functions that hold a close (and of those that call one): their code paths may reach it through the call.
  const { offsets, names: helperNames } = withHelperCalls(candidates, sourceCode.text, sourceCode.ast, sourceCode.visitorKeys);

  const closeMethods = new Set(options.closeMethods);
  // Native or downleveled async iteration is among the offsets found (the pre-filter matches both).
  const mayHaveAsyncLoops = offsets.some((offset) => sourceCode.text.startsWith('for', offset) || sourceCode.text.startsWith('__asyncValues', offset));
  const typeOracle = options.useTypes ? makeTypeOracle(sourceCode.parserServices) : undefined;
  const streams = new StreamResolver({
    getScope: (node) => sourceCode.getScope(node),
    visitorKeys: sourceCode.visitorKeys,
    typeOracle,
    collectClassMembers: true,
  });
  const noteClassMember = (node: Node): void => streams.classMembers.note(node);
  const helpers = helperNames ? new HelperCloses<Site>(helperNames, streams, sourceCode) : null;
  // Built on first use: most candidate files never classify a test.
  let classifier: BranchTestClassifier | undefined;
  const tests = (): BranchTestClassifier =>
    (classifier ??= new BranchTestClassifier(streams, terminalPatternCache.get(options.terminalPatterns), (node) => brief(sourceCode.getText(node))));

  /** `null` for a code path that holds no candidate offset: it can hold no site, so it is not tracked. */
  const stack: Array<PathFacts<Site> | null> = [];
  const allFacts: PathFacts<Site>[] = [];
  /** The calls of helpers recorded as sites, by call: a jump right after one adds no close of its own. */
  const helperCallSites = new Map<Node, Site>();
  const loopBreaks = new Map<Node, Set<Segment>>();
  const consequentEnds = new Map<Node, Set<Segment>>();
  const startedSegments = new Set<Segment>();
  let openTries = 0;
  const handlerSegments = new Set<Segment>();
  const top = (): PathFacts<Site> | null => stack[stack.length - 1] ?? null;

  /** The effect of taking `polarity` of `test`, classified only if the code path is ever solved. */
  const branchEffect = (test: Node, polarity: 'pos' | 'neg'): Effect => ({ kind: 'deferred', resolve: () => tests().classify(test)[polarity] });

  const recordSite = (site: Site): void => {
    if (isLexicallyExempt(site.node)) return;
    if (site.messageId !== 'helperClose' && typeOracle?.confirmsReceiver(site.receiver) === false) return;
    top()?.record({ kind: 'site', site });
  };

  const recordHelperCall = (call: TSESTree.CallExpression, helpers: HelperCloses<Site>): void => {
    const site = helperCallSite(call, helpers, sourceCode);
    helperCallSites.set(call, site);
    recordSite(site);
  };

  const onLoopEnter = (loop: Node): void => {
    if (top()) loopBreaks.set(loop, new Set());
  };
  const onLoopExit = (loop: Node): void => {
    const facts = top();
    if (!facts) return;
    const breaks = loopBreaks.get(loop) ?? new Set<Segment>();
    loopBreaks.delete(loop);
    let effect: Effect | null = null;
    const iterable = asyncLoopIterable(loop);
    if (iterable) {
      effect = {
        kind: 'deferred',
        resolve: memo((): Effect => {
          // A generator that returns on the terminal event ran out there, not at EOF.
          const label = tests().terminalReturnOf(iterable);
          if (label) return { kind: 'gen', label };
          const family = streams.asyncLoopFamily(loop);
          return family ? { kind: 'kill', family } : { kind: 'none' };
        }),
      };
    } else if ((loop.type === AST_NODE_TYPES.WhileStatement || loop.type === AST_NODE_TYPES.DoWhileStatement || loop.type === AST_NODE_TYPES.ForStatement) && loop.test) {
      const test = loop.test;
      effect = { kind: 'deferred', resolve: () => tests().classify(test).neg };
    }
    if (effect) facts.addEdgeEffect(facts.current, effect, breaks);
  };

  const onJump = (node: TSESTree.BreakStatement | TSESTree.ContinueStatement | TSESTree.ReturnStatement): void => {
    const facts = top();
    if (!facts) return;
    const target = node.type === AST_NODE_TYPES.ReturnStatement ? null : jumpTarget(node);
    if (node.type === AST_NODE_TYPES.BreakStatement && target) {
      const breaks = loopBreaks.get(target);
      if (breaks) for (const segment of facts.current) breaks.add(segment);
    }
    const loop = mayHaveAsyncLoops ? innermostLeftAsyncLoop(node, target) : null;
    if (!loop) return;
    const iterable = iteratedExpression(loop);
    if (handsOffToDrain(loop, iterable, sourceCode.text)) return;
    const family = memo(() => streams.asyncLoopFamily(loop));
    recordSite({
      node,
      family,
      closedBefore: () => {
        const left = family();
        const call = left === null ? null : callRightBefore(node);
        if (!call) return false;
        const helperSite = helperCallSites.get(call);
        if (helperSite) return helperSite.family() === left;
        const receiver = closeReceiver(call, closeMethods);
        return receiver !== null && streams.closeFamily(receiver) === left;
      },
      receiver: iterable,
      messageId: 'implicitClose',
      data: { statement: node.type === AST_NODE_TYPES.ReturnStatement ? 'return' : node.type === AST_NODE_TYPES.BreakStatement ? 'break' : 'continue', stream: brief(sourceCode.getText(iterable)) },
    });
  };

  /** At the end of the file: the early closes of the code paths that may close a response, reported. */
  const solveAll = (): void => {
    const found = earlyCloses(allFacts);
    if (found.length > 0) reportEarlyCloses(found, context, hooks, sourceCode, streams);
  };

  const codePathListeners: CodePathListeners = {
    onCodePathStart(codePath: CodePath, node: Node) {
      if (node.type !== AST_NODE_TYPES.Program && !hasOffsetWithin(offsets, node.range[0], node.range[1])) {
        stack.push(null);
        return;
      }
      const enclosing = top();
      const inherits = enclosing !== null && inheritsState(node);
      const facts = new PathFacts<Site>(codePath, inherits ? enclosing : null);
      if (inherits) enclosing.record({ kind: 'spawn', child: facts });
      stack.push(facts);
      allFacts.push(facts);
      helpers?.noteCodePath(node, facts);
    },
    onCodePathEnd(_codePath: CodePath, node: Node) {
      stack.pop();
      if (node.type === AST_NODE_TYPES.Program) solveAll();
    },
    onCodePathSegmentStart(segment: Segment, node: Node) {
      const facts = top();
      if (!facts) return;
      facts.current.add(segment);
      // A segment that starts at a branch (consequent, alternate, right operand, case body) carries its test's effect.
      if (isHandlerBlock(node)) {
        handlerSegments.add(segment);
        // An edge into a `catch` or `finally` from a segment that also goes on inside the `try` is one of ESLint's throw
        // and abrupt-resumption edges (at the first throwable node, at a generator's `yield`): an error or the consumer
        // stopping, exempt paths. The edges of normal completion, `return` and `break` lead only into the handler.
        for (const previous of segment.prevSegments) {
          if (previous.nextSegments.some((next) => next !== segment && startedSegments.has(next) && !handlerSegments.has(next))) {
            facts.addEdgeEffectFrom(previous, segment, KILL_ALL);
          }
        }
      }
      // Only a segment inside a `try` can be where a throw edge into its handler also goes on.
      if (openTries > 0) startedSegments.add(segment);
      const branch = branchOf(node);
      if (branch) {
        facts.recordIn(segment, { kind: 'effect', effect: branchEffect(branch.test, branch.polarity) });
        const parent = node.parent!;
        // Only a negation (`!`, `!==`) gives the fall-through after an `if` without `else` an effect of its own.
        if (parent.type === AST_NODE_TYPES.IfStatement && !parent.alternate && node === parent.consequent && hasNegation(sourceCode.text, parent.test.range)) {
          consequentEnds.set(parent, new Set());
        }
      } else if (node.type === AST_NODE_TYPES.IfStatement) {
        // The segment after an `if` without `else`: edges from the test (not from the consequent) take the negation.
        const ends = consequentEnds.get(node);
        if (ends) {
          consequentEnds.delete(node);
          facts.addEdgeEffect([segment], branchEffect(node.test, 'neg'), ends);
        }
      }
    },
    onCodePathSegmentEnd(segment: Segment, node: Node) {
      const facts = top();
      if (!facts) return;
      facts.current.delete(segment);
      // Segments still open when an `if` is left are the ends of its consequent (the false edges ended at the test).
      consequentEnds.get(node)?.add(segment);
    },
  };
  const nodeListeners: TSESLint.RuleListener = {
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
    'AssignmentExpression[operator="="][right.value=true]'(node: TSESTree.AssignmentExpression) {
      top()?.record({
        kind: 'effect',
        effect: {
          kind: 'deferred',
          resolve: () => {
            const label = tests().flagSetTo(node);
            return label ? { kind: 'gen', label } : { kind: 'none' };
          },
        },
      });
    },
    'AssignmentExpression[left.object.type="ThisExpression"]': noteClassMember,
    PropertyDefinition: noteClassMember,
    TSParameterProperty: noteClassMember,
    'MemberExpression[property.name="signal"][object.object.type="ThisExpression"]': noteClassMember,
    // A called function that returns on the terminal event: the caller goes on from there.
    'AwaitExpression:exit'(node: TSESTree.AwaitExpression) {
      const call = node.argument;
      if (call.type !== AST_NODE_TYPES.CallExpression || !mayCallLocalFunction(call)) return;
      top()?.record({
        kind: 'effect',
        effect: {
          kind: 'deferred',
          resolve: memo((): Effect => {
            const label = tests().terminalReturnOf(call);
            return label ? { kind: 'gen', label } : { kind: 'none' };
          }),
        },
      });
    },
    TryStatement() {
      openTries++;
    },
    'TryStatement:exit'() {
      openTries--;
    },
    BreakStatement: onJump,
    // `continue` and `return` matter only as implicit closes, which need a `for await`.
    ...(mayHaveAsyncLoops ? { ContinueStatement: onJump, ReturnStatement: onJump } : {}),
    [matchers.closeCalls](node: TSESTree.CallExpression) {
      const callee = unwrap(node.callee);
      if (callee?.type !== AST_NODE_TYPES.MemberExpression) return;
      const method = propertyName(callee);
      if (!method || !closeMethods.has(method)) return;
      const receiver = callee.object;
      recordSite({
        node,
        family: memo(() => streams.closeFamilyFor(receiver, method)),
        receiver,
        method,
        messageId: 'explicitClose',
        data: { stream: brief(sourceCode.getText(receiver)), method },
      });
    },
  };
  if (helpers) {
    const closeCalls = nodeListeners.CallExpression;
    nodeListeners.CallExpression = (node: TSESTree.CallExpression) => {
      closeCalls?.(node);
      if (top() && helpers.calls(node)) recordHelperCall(node, helpers);
    };
  }
  return withCodePathListeners(nodeListeners, codePathListeners);
}

/** A close reached with the terminal event `event` pending and its stream short of EOF. */
interface EarlyClose {
  site: Site;
  event: string;
}

/**
 * The early closes of a file: each code path that may close a response (one of its sites, or of the callbacks that start
 * from its state, has a family) solved to its fixed point, and the sites it reaches with the terminal event pending.
 */
function earlyCloses(allFacts: readonly PathFacts<Site>[]): EarlyClose[] {
  for (let index = allFacts.length - 1; index >= 0; index--) {
    const facts = allFacts[index];
    facts.needed ||= facts.sites?.some((site) => site.family() !== null) ?? false;
    if (facts.needed && facts.parent) facts.parent.needed = true;
  }
  const found: EarlyClose[] = [];
  for (const facts of allFacts) {
    if (!facts.needed) continue;
    solve(
      facts,
      (site, state) => {
        const pending = state?.pending;
        if (!pending) return;
        const family = site.family();
        if (!family || pending.eofed.has(family) || site.closedBefore?.()) return;
        // A controller of unseen origin is taken to be that of the response this path read to its end.
        if (isUnseenController(family) && pending.eofed.size > 0) return;
        found.push({ site, event: pending.label });
      }
    );
  }
  return found;
}

/** Each early close to the host's hook and as ESLint's report, with the rewrite of `drainguard fix` as its suggestion. */
function reportEarlyCloses(found: readonly EarlyClose[], context: RuleContext, hooks: RuleHooks, sourceCode: SourceCode, streams: StreamResolver): void {
  for (const { site } of found) hooks.onReport?.(siteAt(site.node, site.messageId, sourceCode, { streams, ...helperOf(site) }));
  // Built and parsed when a host first asks for a suggestion's fix (ESLint does at once; a host that only prints
  // reports never does), for all sites at once.
  let suggestions: Map<Node, SuggestedRewrite> | undefined;
  const suggested = (): Map<Node, SuggestedRewrite> => (suggestions ??= suggestionsFor(found.map(({ site }) => site), sourceCode, suggestionContext(context), streams));
  for (const { site, event } of found) {
    // No rewrite (a manual site, or one that does not parse): no fix, and ESLint drops the suggestion.
    const fix: TSESLint.ReportFixFunction = (fixer) => {
      const rewrite = suggested().get(site.node);
      return rewrite ? fixer.replaceTextRange([rewrite.edit.start, rewrite.edit.end], rewrite.edit.text) : null;
    };
    context.report({
      node: site.node,
      loc: locationOf(site.node, sourceCode),
      messageId: site.messageId,
      data: { ...site.data, ...site.describe?.(), event },
      ...(hooks.suggestions === false ? {} : { suggest: [{ messageId: 'drainInBackground', data: { budget: String(DEFAULT_DRAIN_TIMEOUT_MS) }, fix }] }),
    });
  }
}

/** The site of a call of a helper: its family and the message's stream and method are those of the close it reaches. */
function helperCallSite(call: TSESTree.CallExpression, helpers: HelperCloses<Site>, sourceCode: SourceCode): Site {
  const reach = memo(() => helpers.reach(call));
  return {
    node: call,
    family: () => reach()?.family ?? null,
    reach,
    receiver: call,
    messageId: 'helperClose',
    data: { call: brief(sourceCode.getText(call)), helper: calleeText(call) },
    describe: () => {
      const found = reach();
      const stream = found?.helper.argument ? sourceCode.getText(found.helper.argument) : (found?.receiverText ?? '');
      return { stream: brief(stream), method: found?.method ?? '' };
    },
  };
}

/** The helper a reported call reaches, for the fix planner. */
function helperOf(site: Site): Pick<StreamSite, 'helper'> {
  const reach = site.reach?.();
  return reach ? { helper: reach.helper } : {};
}

const rule = createNoEarlyStreamClose();
export default rule;

/**
 * The options of a file's run. ESLint hands a rule configured without options its meta.defaultOptions[0] itself: no copy
 * of it on every file (most files cost the rule only this prologue and the candidate test).
 */
function optionsOf(context: RuleContext): RuleOptions {
  const given = contextField(context, 'options')[0];
  return given === defaultRuleOptions ? defaultRuleOptions : { ...defaultRuleOptions, ...given };
}

/**
 * A field of the rule context, read with `Reflect.get`: ESLint builds every file's context afresh, with a hidden class
 * V8 has not seen, and the first rule that reads one with `context.x` pays an inline-cache miss: about 8 µs a file for
 * `context.options`, 1.5 µs when another rule has read it first or with `Reflect.get`, a plain look-up (measured over
 * 3,862 SDK files). Over the corpus, with the rule first in the config: 849 -> 735 ms (TIMING=all).
 */
function contextField<K extends 'options' | 'sourceCode'>(context: RuleContext, key: K): RuleContext[K] {
  return Reflect.get(context, key);
}

function memo<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

// ESLint hands every file a fresh copy of the options: build what they compile to once per distinct value.
interface CloseMethodMatchers {
  /** The pre-filter, global: where a file may hold a close. */
  candidates: RegExp;
  /** The selector of close calls. */
  closeCalls: string;
}
/**
 * What is built from a list of option values, built once per list: looked up by the array first (ESLint hands every
 * file of a config the same options, so the common look-up joins nothing), then by its contents.
 */
class ListCache<T> {
  private readonly byArray = new WeakMap<readonly string[], T>();
  private readonly byContents = new Map<string, T>();

  constructor(private readonly build: (values: readonly string[]) => T) {}

  get(values: readonly string[]): T {
    let built = this.byArray.get(values);
    if (built === undefined) {
      const key = values.join('\n');
      built = this.byContents.get(key);
      if (built === undefined) this.byContents.set(key, (built = this.build(values)));
      this.byArray.set(values, built);
    }
    return built;
  }
}

const closeMethodMatchers = new ListCache<CloseMethodMatchers>((methods) => ({
  candidates: new RegExp(closeCandidatePattern(methods).source, 'g'),
  closeCalls: closeCallSelector(methods),
}));
const terminalPatternCache = new ListCache<RegExp[]>(compilePatterns);

/** The call written as the statement right before `node` (`body.destroy(); return;`, `stop(controller); break;`), if any. */
function callRightBefore(node: Node): Node | null {
  const parent = node.parent;
  const statements: readonly Node[] = parent?.type === AST_NODE_TYPES.BlockStatement ? parent.body : parent?.type === AST_NODE_TYPES.SwitchCase ? parent.consequent : [];
  const previous = statements[statements.indexOf(node) - 1];
  if (previous?.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  const call = unwrap(previous.expression);
  return call?.type === AST_NODE_TYPES.CallExpression ? call : null;
}

/** The receiver of a close call (`body` of `body.destroy()`), if `call` is one. */
function closeReceiver(call: Node, closeMethods: ReadonlySet<string>): Node | null {
  const callee = call.type === AST_NODE_TYPES.CallExpression ? unwrap(call.callee) : null;
  return callee?.type === AST_NODE_TYPES.MemberExpression && closeMethods.has(propertyName(callee) ?? '') ? callee.object : null;
}

const KILL_ALL: Effect = { kind: 'killAll' };

/** `f(…)`, `this.f(…)`, `x.f(…)`: a call that calledFunction may resolve (not `a.b.f(…)` or `f()(…)`). */
function mayCallLocalFunction(call: TSESTree.CallExpression): boolean {
  const callee = unwrap(call.callee);
  if (callee?.type === AST_NODE_TYPES.Identifier) return true;
  const object = callee?.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : null;
  return object?.type === AST_NODE_TYPES.Identifier || object?.type === AST_NODE_TYPES.ThisExpression;
}

/** The block of a `catch` clause or of a `finally`, where ESLint starts the segments that errors and early returns reach. */
function isHandlerBlock(node: Node): boolean {
  return node.type === AST_NODE_TYPES.CatchClause || (node.parent?.type === AST_NODE_TYPES.TryStatement && node.parent.finalizer === node);
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

/** Only calls of a close method reach the listener (ESLint matches the selector), not every call of the file. */
function closeCallSelector(closeMethods: readonly string[]): string {
  if (!closeMethods.every((name) => /^[\w$]+$/.test(name))) return 'CallExpression';
  const names = `/^(?:${closeMethods.map((name) => name.replaceAll('$', '\\$')).join('|')})$/`;
  return `CallExpression[callee.property.name=${names}], CallExpression[callee.property.value=${names}]`;
}

function hasNegation(text: string, [start, end]: readonly [number, number]): boolean {
  const index = text.indexOf('!', start);
  return index !== -1 && index < end;
}

/** Callbacks start from the state where they are written (a callback in a completion branch); declarations, methods, IIFEs and stored functions do not. */
function inheritsState(node: Node): boolean {
  if (node.type !== AST_NODE_TYPES.ArrowFunctionExpression && node.type !== AST_NODE_TYPES.FunctionExpression) return false;
  const parent = node.parent;
  // A callback handed to a call runs after the point where it is written; an IIFE or a stored function need not.
  return (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) && parent.callee !== node;
}

/**
 * The suggestion is the rewrite `drainguard fix` makes (one code path), with the default bounds, where it parses.
 * A jump folded into the close right before it (`body.destroy(); return;`) is rewritten with that close.
 */
function suggestionsFor(found: readonly Site[], sourceCode: SourceCode, context: SuggestionContext, streams: StreamResolver): Map<Node, SuggestedRewrite> {
  const sites = new Map<Node, StreamSite>();
  for (const site of found) {
    const reported = siteAt(site.node, site.messageId, sourceCode, helperOf(site));
    sites.set(site.node, reported);
    const jump = site.messageId !== 'implicitClose' ? jumpAfterClose(site.node) : null;
    if (jump && !sites.has(jump)) sites.set(jump, siteAt(jump, 'implicitClose', sourceCode, { partOf: reported }));
  }
  // A site the planner cannot handle gets no suggestion rather than failing the lint of its file.
  try {
    return suggestedEdits([...sites.values()], sourceCode, context, streams);
  } catch {
    return new Map();
  }
}

/** How the suggestions of a file are planned and checked: with the rule's own options, by the parser that read the file. */
function suggestionContext(context: RuleContext): SuggestionContext {
  const ruleOptions = context.options[0] ?? {};
  const languageOptions = verificationLanguageOptions(asESLintLanguageOptions(context.languageOptions));
  return {
    filename: context.filename,
    terminalPatterns: ruleOptions.terminalPatterns,
    parses: (text) => parseErrorOf(text, context.filename, languageOptions) === null,
    statementsApart: statementsApartCheck(languageOptions),
  };
}

function handsOffToDrain(loop: Node, iterable: Node, text: string): boolean {
  if (loop.type !== AST_NODE_TYPES.ForOfStatement || iterable.type !== AST_NODE_TYPES.Identifier) return false;
  const [start, end] = loop.body.range;
  return text.slice(start, end).includes(`${iterable.name}.${DRAIN_HAND_OFF_METHOD}(`);
}

/** The stream a `for await` iterates, as written: `x` of `for await (… of x)` or the `__asyncValues(x)` argument. */
function iteratedExpression(loop: Node): Node {
  return asyncLoopIterable(loop) ?? loop;
}
