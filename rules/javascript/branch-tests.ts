import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, isFunction, propertyName, unwrap, type Node } from './ast.js';
import { calledFunction, isNullish, terminalBranchOf } from './function-results.js';
import type { Effect } from '../core/effect.js';
import { EofTracker } from './eof.js';
import { flagWrites, placeOf } from './flag-writes.js';
import type { StreamResolver } from './streams.js';
import type { TSESLint } from '@typescript-eslint/utils';
import { JSON_RPC_REPLY_TOKEN, MULTIPART_END_TOKEN, exemptKind, matchesTerminal, words, type ExemptKind } from './words.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/** Effects on the branch taken when the test holds (`pos`) and when it does not (`neg`). */
export interface TestEffects {
  pos: Effect;
  neg: Effect;
}

const NONE: Effect = { kind: 'none' };
const KILL_ALL: Effect = { kind: 'killAll' };
const NEUTRAL: TestEffects = { pos: NONE, neg: NONE };

/** Both hold (`a && b` taken): the strongest kill wins, then a terminal event (the test that recognises it, not its guard). */
function both(a: Effect, b: Effect): Effect {
  if (a.kind === 'killAll' || b.kind === 'killAll') return KILL_ALL;
  if (a.kind === 'kill') return a;
  if (b.kind === 'kill') return b;
  if (a.kind === 'gen') return a.guard && b.kind === 'gen' && !b.guard ? b : a;
  return b;
}

/**
 * Either holds (`a || b` taken). The test is exempt only when every way it can be true is: a terminal side wins
 * (`type === 'completed' || type === 'error'`: an error reply ends the exchange too); otherwise an exempt side keeps it quiet.
 */
function either(a: Effect, b: Effect): Effect {
  if (a.kind === 'gen') return a;
  if (b.kind === 'gen') return b;
  if (a.kind === 'killAll' || b.kind === 'killAll') return KILL_ALL;
  if (a.kind === 'kill' && b.kind === 'kill') return a;
  return NONE;
}

const RELATIONAL = new Set(['<', '<=', '>', '>=']);
const EQUALITY = new Set(['===', '==', '!==', '!=']);
/** Calls that read a clock: a relational test against one is a timeout, whatever the names. */
const CLOCK_READS = new Map([
  ['Date', 'now'],
  ['performance', 'now'],
  ['process', 'hrtime'],
  ['hrtime', 'bigint'],
]);

export class BranchTestClassifier {
  private readonly cache = new Map<Node, TestEffects>();
  private readonly flags = new Map<TSESLint.Scope.Variable, boolean>();
  /** Per function: the label of its terminal test when it returns null exactly on its terminal-event branches. */
  private readonly nullOnTerminal = new Map<Node, string | null>();
  /** Per variable: whether the code writes to it (`res.write(…)`), see isWritableState. */
  private readonly writtenTo = new Map<TSESLint.Scope.Variable, boolean>();
  /** Per function: the label of a terminal test whose branch ends in one of its returns. */
  private readonly terminalReturns = new Map<Node, string | null>();
  private readonly eof: EofTracker;
  /** Per flag test (an identifier or member node): see setOffTerminalPath; `undefined` while it is being worked out. */
  private readonly offTerminal = new Map<Node, boolean | undefined>();
  /** Predicates whose returned test is being classified (a predicate that calls itself is not followed again). */
  private readonly predicatesInProgress = new Set<Node>();

  constructor(
    private readonly streams: StreamResolver,
    private readonly terminalPatterns: readonly RegExp[],
    private readonly labelOf: (node: Node) => string,
  ) {
    this.eof = new EofTracker(streams);
  }

  classify(test: Node | null | undefined): TestEffects {
    if (!test) return NEUTRAL;
    let effects = this.cache.get(test);
    if (!effects) {
      effects = this.compute(test);
      // A completion recognised on an exempt branch (a timer's, an error's) ends nothing the body said.
      if ((effects.pos.kind === 'gen' || effects.neg.kind === 'gen') && this.inExemptScope(test)) effects = withoutGen(effects);
      this.cache.set(test, effects);
    }
    return effects;
  }

  /**
   * Whether `node` is on an exempt branch of its function: the consequent of `if (result === TIMEOUT)`, of `if (error)`,
   * of `if (Date.now() - started > limit)`. A close there is that branch's (a timeout close after polling a job's state
   * through another API), whatever completion word a test inside it names. A check of an HTTP status is not such a
   * branch: a whole reading loop often sits under `if (res.status === 200)`.
   */
  private inExemptScope(node: Node): boolean {
    let child: Node = node;
    for (let parent = node.parent; parent && !isFunction(parent); child = parent, parent = parent.parent) {
      let test: Node | null = null;
      let holds = true;
      if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && child !== parent.test) {
        test = parent.test;
        holds = child === parent.consequent;
      } else if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.operator !== '??' && child === parent.right) {
        test = parent.left;
        holds = parent.operator === '&&';
      }
      if (!test) continue;
      const effects = this.classify(test);
      if ((holds ? effects.pos : effects.neg).kind === 'killAll' && this.scopesExempt(test)) return true;
    }
    return false;
  }

  /** An exempt test that makes its whole branch exempt: about time, errors, aborts or limits, not only an HTTP status. */
  private scopesExempt(test: Node): boolean {
    const node = unwrap(test);
    if (!node) return false;
    const relational = node.type === AST_NODE_TYPES.BinaryExpression && RELATIONAL.has(node.operator);
    if (relational && (this.readsClock(node.left) || this.readsClock(node.right))) return true;
    return collectTokens(node).some((token) => {
      const list = words(token).filter((word) => word !== 'status');
      return list.length > 0 && exemptKind(list.join('_'), relational) === 'abnormal';
    });
  }

  /**
   * A completion flag: a local `let` with a completion name (`finished`, `sawDone`) that is only ever set to boolean
   * literals, all in one function. The completion is recognised where it is set to `true` (see `flagSetTo`), so a flag
   * set in the EOF branch does not count as a terminal event when it is tested later (`while (!finished)`).
   */
  isCompletionFlag(identifier: TSESTree.Identifier): boolean {
    const variable = this.streams.variableOf(identifier);
    if (!variable) return false;
    let flag = this.flags.get(variable);
    if (flag === undefined) {
      flag = this.computeFlag(variable);
      this.flags.set(variable, flag);
    }
    return flag;
  }

  /** `finished = true` of a completion flag: the label of the terminal event it records, else null. */
  flagSetTo(assignment: TSESTree.AssignmentExpression): string | null {
    if (assignment.operator !== '=' || assignment.left.type !== AST_NODE_TYPES.Identifier) return null;
    const right = unwrap(assignment.right);
    if (right?.type !== AST_NODE_TYPES.Literal || right.value !== true) return null;
    return this.isCompletionFlag(assignment.left) && !this.inExemptScope(assignment) ? assignment.left.name : null;
  }

  private computeFlag(variable: TSESLint.Scope.Variable): boolean {
    if (variable.defs.length !== 1) return false;
    const def = variable.defs[0];
    if (def.type !== 'Variable' || def.parent.kind === 'const') return false;
    const declarator = def.node;
    if (declarator.id !== def.name || !isBooleanLiteralOrNothing(declarator.init)) return false;
    if (!matchesTerminal(variable.name, this.terminalPatterns) || exemptKind(variable.name, true) !== null) return false;
    const home = variable.scope.variableScope;
    for (const reference of variable.references) {
      if (reference.from.variableScope !== home) return false;
      if (!reference.isWrite() || reference.init) continue;
      const assignment = reference.identifier.parent;
      if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=' || !isBooleanLiteralOrNothing(assignment.right)) return false;
    }
    return true;
  }

  private compute(test: Node): TestEffects {
    const node = unwrap(test);
    if (!node) return NEUTRAL;
    if (node.type === AST_NODE_TYPES.UnaryExpression && node.operator === '!') return negate(this.classify(node.argument));
    if (node.type === AST_NODE_TYPES.LogicalExpression && node.operator !== '??') {
      // The shape check looks at a whole `&&` chain once (not at each of its sub-chains: linear in the test's size).
      if (node.operator === '&&' && !(node.parent?.type === AST_NODE_TYPES.LogicalExpression && node.parent.operator === '&&')) {
        const reply = this.jsonRpcReply(node) ?? this.multipartEnd(node);
        if (reply) return reply;
      }
      const left = this.classify(node.left);
      const right = this.classify(node.right);
      return node.operator === '&&'
        ? { pos: both(left.pos, right.pos), neg: either(left.neg, right.neg) }
        : { pos: either(left.pos, right.pos), neg: both(left.neg, right.neg) };
    }
    // Downleveled optional chaining, `item === null || item === void 0 ? void 0 : item.done`: the member read decides.
    if (node.type === AST_NODE_TYPES.ConditionalExpression && isNullish(node.consequent)) {
      const read = this.classify(node.alternate);
      return { pos: read.pos, neg: either(NONE, read.neg) };
    }
    if (node.type === AST_NODE_TYPES.BinaryExpression && EQUALITY.has(node.operator)) {
      const tested = nullComparedSide(node);
      if (tested) return this.nullComparison(tested, node.operator === '===' || node.operator === '==');
    }
    if (node.type === AST_NODE_TYPES.BinaryExpression && (node.operator === '!==' || node.operator === '!=')) {
      const effects = this.atom(node);
      // `res.status !== 200`, `err != null`: an exempt test stays exempt on its own side.
      return effects.pos.kind === 'killAll' ? effects : negate(effects);
    }
    return this.atom(node);
  }

  private atom(node: Node): TestEffects {
    const eof = this.eof.eofFamily(node);
    if (eof) return { pos: { kind: 'kill', family: eof }, neg: NONE };
    if (node.type === AST_NODE_TYPES.BinaryExpression) {
      const sideEof = this.eof.eofFamily(node.left) ?? this.eof.eofFamily(node.right);
      if (sideEof && isTrueLiteral(node.left, node.right)) return { pos: { kind: 'kill', family: sideEof }, neg: NONE };
    }
    if (node.type === AST_NODE_TYPES.Identifier && this.isCompletionFlag(node)) return { pos: NONE, neg: KILL_ALL };
    const reply = this.jsonRpcReply(node) ?? this.multipartEnd(node);
    if (reply) return reply;
    const predicate = node.type === AST_NODE_TYPES.CallExpression ? this.predicateResult(node) : null;
    if (predicate) return predicate;
    const nullOnTerminal = this.nullOnTerminalValue(node);
    if (nullOnTerminal) return { pos: NONE, neg: { kind: 'gen', label: nullOnTerminal } };
    const tokens = collectTokens(node, (member) => this.isWritableState(member));
    const relational = node.type === AST_NODE_TYPES.BinaryExpression && RELATIONAL.has(node.operator);
    if (relational && (this.readsClock(node.left) || this.readsClock(node.right))) return { pos: KILL_ALL, neg: NONE };
    const comparison = relational && !isEmptinessCheck(node);
    // `record.status === 'completed'` is about the value compared, not an HTTP status check.
    const comparesString = node.type === AST_NODE_TYPES.BinaryExpression && EQUALITY.has(node.operator) && [node.left, node.right].some(isStringLiteral);
    // `if (stream_status)` asks whether there is a status object, not what an HTTP status says.
    const truthiness = node.type === AST_NODE_TYPES.Identifier || node.type === AST_NODE_TYPES.MemberExpression;
    let kind: ExemptKind = null;
    for (const token of tokens) {
      const checked = (comparesString || truthiness) && words(token).includes('status') ? words(token).filter((word) => word !== 'status').join('_') : token;
      if (!checked) continue;
      const tokenKind = exemptKind(checked, comparison);
      if (tokenKind === 'abnormal') return { pos: KILL_ALL, neg: NONE };
      kind ??= tokenKind;
    }
    if (kind === 'success') return { pos: NONE, neg: KILL_ALL };
    if (tokens.some((token) => matchesTerminal(token, this.terminalPatterns))) {
      const guard = node.type === AST_NODE_TYPES.Identifier || node.type === AST_NODE_TYPES.MemberExpression || node.type === AST_NODE_TYPES.PrivateIdentifier;
      if (guard && this.setOffTerminalPath(node)) return NEUTRAL;
      return { pos: { kind: 'gen', label: this.labelOf(node), ...(guard ? { guard } : {}) }, neg: NONE };
    }
    return NEUTRAL;
  }

  /**
   * A flag named for completion that the code sets itself, to `true` only off every terminal event's branch (in a
   * `finally` or `catch`, on an error or EOF branch, unconditionally): that it is set says nothing about a terminal
   * event (a download abandoned after another worker failed sets `state.finished` in a `finally`). Every write must be
   * in sight and a boolean literal; a write in a `switch` case, or under a test that is itself being worked out, counts
   * as on a terminal event.
   */
  private setOffTerminalPath(flag: Node): boolean {
    if (this.offTerminal.has(flag)) return this.offTerminal.get(flag) ?? false;
    this.offTerminal.set(flag, undefined);
    const found = flagWrites(flag, (identifier) => this.streams.variableOf(identifier));
    let off = false;
    if (found) {
      const set = found.writes.filter((write) => !isLiteral(write.value, false));
      off =
        set.length > 0 &&
        set.every((write) => {
          if (!isLiteral(write.value, true)) return false;
          const place = placeOf(write.at);
          if (place.switchCase) return false;
          return !place.tests.some(({ test, holds }) => {
            const effects = this.classify(test);
            return (holds ? effects.pos : effects.neg).kind === 'gen';
          });
        });
    }
    this.offTerminal.set(flag, off);
    return off;
  }

  /**
   * `x == null`, `x !== undefined`: comparing a value with null says nothing about completion (a completion flag
   * is tested false, not compared with null), except for a value from a function that returns null exactly when
   * it saw the terminal event. An exempt value (`err != null`) stays exempt on its side.
   */
  private nullComparison(tested: Node, isNull: boolean): TestEffects {
    const label = this.nullOnTerminalValue(tested);
    if (label) {
      const terminal: Effect = { kind: 'gen', label };
      return isNull ? { pos: terminal, neg: NONE } : { pos: NONE, neg: terminal };
    }
    if (collectTokens(tested).some((token) => exemptKind(token, false) === 'abnormal')) {
      return isNull ? { pos: NONE, neg: KILL_ALL } : { pos: KILL_ALL, neg: NONE };
    }
    return NEUTRAL;
  }

  /**
   * The state of the side we write to says nothing about the body we read: a Node writable's own state
   * (`res.writableEnded`, `writableFinished`) and any state of an object this code writes to (`res.finished` where
   * `res.write(…)`/`res.end()` is called).
   */
  private isWritableState(member: TSESTree.MemberExpression): boolean {
    const name = propertyName(member);
    if (name !== null && words(name)[0] === 'writable') return true;
    const object = unwrap(member.object);
    if (object?.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = this.streams.variableOf(object);
    if (!variable) return false;
    let written = this.writtenTo.get(variable);
    if (written === undefined) {
      written = variable.references.some((reference) => isWriteCallReceiver(reference.identifier));
      this.writtenTo.set(variable, written);
    }
    return written;
  }

  /** A clock reading (`Date.now()`, `performance.now()`), directly or through a variable that holds one, in an arithmetic expression. */
  private readsClock(expression: Node): boolean {
    const node = unwrap(expression);
    if (!node) return false;
    if (node.type === AST_NODE_TYPES.BinaryExpression) return this.readsClock(node.left) || this.readsClock(node.right);
    if (node.type === AST_NODE_TYPES.CallExpression) return isClockCall(node);
    if (node.type === AST_NODE_TYPES.Identifier) {
      const variable = this.streams.variableOf(node);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (def?.type !== 'Variable') return false;
      const init = unwrap(def.node.init);
      return init?.type === AST_NODE_TYPES.CallExpression && isClockCall(init);
    }
    return false;
  }

  /**
   * The terminal test of the function whose result `expression` is (`const data = await this.dispatch(…)`), when
   * that function (a method of the same class or a function of the module) returns null on every terminal-event
   * branch and nowhere else: the caller's null test then recognises the event. Computed once per function.
   */
  private nullOnTerminalValue(expression: Node): string | null {
    let value = unwrap(expression);
    if (value?.type === AST_NODE_TYPES.Identifier) {
      const variable = this.streams.variableOf(value);
      if (!variable || variable.defs.length !== 1 || variable.references.some((reference) => reference.isWrite() && !reference.init)) return null;
      const def = variable.defs[0];
      if (def.type !== 'Variable' || def.node.id !== def.name) return null;
      value = unwrap(def.node.init);
    }
    if (value?.type !== AST_NODE_TYPES.CallExpression) return null;
    const fn = calledFunction(value, this.streams);
    if (!fn) return null;
    if (this.nullOnTerminal.has(fn)) return this.nullOnTerminal.get(fn)!;
    this.nullOnTerminal.set(fn, null);
    const label = this.computeNullOnTerminal(fn);
    this.nullOnTerminal.set(fn, label);
    return label;
  }

  private computeNullOnTerminal(fn: Node): string | null {
    let label: string | null = null;
    for (const statement of this.streams.returnsOf(fn)) {
      const returnsNull = isNullish(statement.argument);
      const branch = terminalBranchOf(statement, (test) => this.classify(test).pos);
      if (returnsNull !== (branch !== null)) return null;
      label ??= branch;
    }
    return label;
  }

  /**
   * When `expression` calls a function of the module (or the class) that returns on a terminal event (`if (result ===
   * 'complete') return;`), the label of that event: the call may end there, before EOF. Computed once per function.
   */
  terminalReturnOf(expression: Node): string | null {
    const call = unwrap(expression);
    const fn = call?.type === AST_NODE_TYPES.CallExpression ? calledFunction(call, this.streams) : null;
    if (!fn) return null;
    if (this.terminalReturns.has(fn)) return this.terminalReturns.get(fn)!;
    this.terminalReturns.set(fn, null);
    let label: string | null = null;
    for (const statement of this.streams.returnsOf(fn)) {
      label = terminalBranchOf(statement, (test) => this.classify(test).pos);
      if (label) break;
    }
    this.terminalReturns.set(fn, label);
    return label;
  }

  /**
   * A call of a predicate of the module (`const passedFinalBoundary = () => seen && buffer[0] == '-' && buffer[1] == '-'`,
   * `function isDone(e) { return e.type === 'done'; }`): the test its one returned expression makes, named by the call.
   */
  private predicateResult(call: TSESTree.CallExpression): TestEffects | null {
    const fn = calledFunction(call, this.streams);
    if (!fn || !isFunction(fn) || fn.generator || fn.async || this.predicatesInProgress.has(fn)) return null;
    let returned: Node | null = null;
    if (fn.type === AST_NODE_TYPES.ArrowFunctionExpression && fn.expression) returned = fn.body;
    else if (fn.body.type === AST_NODE_TYPES.BlockStatement && fn.body.body.length === 1 && fn.body.body[0].type === AST_NODE_TYPES.ReturnStatement) returned = fn.body.body[0].argument;
    if (!returned) return null;
    this.predicatesInProgress.add(fn);
    const effects = this.classify(returned);
    this.predicatesInProgress.delete(fn);
    if (effects.pos.kind === 'none' && effects.neg.kind === 'none') return null;
    const label = this.labelOf(call);
    const relabel = (effect: Effect): Effect => (effect.kind === 'gen' ? { ...effect, label } : effect);
    return { pos: relabel(effects.pos), neg: relabel(effects.neg) };
  }

  /** The closing boundary of a multipart/mixed body (RFC 2046: the boundary followed by `--`), when the patterns recognise its token. */
  private multipartEnd(node: Node): TestEffects | null {
    if (!isMultipartEnd(node) || !matchesTerminal(MULTIPART_END_TOKEN, this.terminalPatterns)) return null;
    return { pos: { kind: 'gen', label: this.labelOf(node) }, neg: NONE };
  }

  /** A JSON-RPC reply check by shape, when the completion patterns recognise replies (the defaults do). */
  private jsonRpcReply(node: Node): TestEffects | null {
    if (!isJsonRpcReply(node, collectTokens(node)) || !matchesTerminal(JSON_RPC_REPLY_TOKEN, this.terminalPatterns)) return null;
    return { pos: { kind: 'gen', label: this.labelOf(node) }, neg: NONE };
  }
}

/** Methods that write to a Node writable or a server response. */
const WRITE_METHODS = new Set(['write', 'end', 'writeHead', 'setHeader', 'flushHeaders']);

/** `x` of a call `x.write(…)`, `x.end()`. */
function isWriteCallReceiver(identifier: Node): boolean {
  const member = identifier.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== identifier) return false;
  const call = member.parent;
  return call?.type === AST_NODE_TYPES.CallExpression && call.callee === member && WRITE_METHODS.has(propertyName(member) ?? '');
}

function isStringLiteral(node: Node): boolean {
  return node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string';
}

/** The side compared with `null`/`undefined`/`void 0`, if one side is such. */
function nullComparedSide(node: TSESTree.BinaryExpression): Node | null {
  if (node.left.type !== AST_NODE_TYPES.PrivateIdentifier && isNullish(node.right)) return node.left;
  if (isNullish(node.left)) return node.right;
  return null;
}

function isClockCall(call: TSESTree.CallExpression): boolean {
  const callee = unwrap(call.callee);
  if (callee?.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = unwrap(callee.object);
  const name = object?.type === AST_NODE_TYPES.Identifier ? object.name : object?.type === AST_NODE_TYPES.MemberExpression ? propertyName(object) : null;
  return name !== null && CLOCK_READS.get(name) === propertyName(callee);
}

/** `buf.length > 0`, `count < 1`: about emptiness, not a size or count limit. */
function isEmptinessCheck(node: TSESTree.BinaryExpression): boolean {
  return [node.left, node.right].some((side) => side.type === AST_NODE_TYPES.Literal && (side.value === 0 || side.value === 1));
}

function isLiteral(node: Node, value: boolean): boolean {
  const literal = unwrap(node);
  return literal?.type === AST_NODE_TYPES.Literal && literal.value === value;
}

function isBooleanLiteralOrNothing(node: Node | null | undefined): boolean {
  const value = unwrap(node);
  if (!value) return true;
  if (value.type === AST_NODE_TYPES.Literal) return typeof value.value === 'boolean';
  return value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined';
}

/** The effects with their terminal events taken out (the test sits on an exempt branch). */
function withoutGen(effects: TestEffects): TestEffects {
  return { pos: effects.pos.kind === 'gen' ? NONE : effects.pos, neg: effects.neg.kind === 'gen' ? NONE : effects.neg };
}

/**
 * A test for the closing boundary of a multipart body (RFC 2046 §5.1.1: the boundary followed by `--`): it mentions a
 * boundary and looks for `--` after it (`buffer.startsWith('--', at + boundary.length)`, `line === \`--${boundary}--\``,
 * `boundary + '--'`), or for two `-` in a row where a boundary was met (`seenBoundary && buf[0] == '-' && buf[1] == '-'`).
 * `'--' + boundary` alone is the boundary between parts, not the end.
 */
function isMultipartEnd(root: Node): boolean {
  let boundary = false;
  let closing = false;
  let dashes = 0;
  const visit = (node: Node | null | undefined): void => {
    if (!node) return;
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
      case AST_NODE_TYPES.PrivateIdentifier:
        if (words(node.name).includes('boundary')) boundary = true;
        return;
      case AST_NODE_TYPES.Literal:
        if (node.value === '--') {
          const parent = node.parent;
          const opensDelimiter = parent?.type === AST_NODE_TYPES.BinaryExpression && parent.operator === '+' && parent.left === node;
          if (!opensDelimiter) closing = true;
        } else if (node.value === '-' && node.parent?.type === AST_NODE_TYPES.BinaryExpression && EQUALITY.has(node.parent.operator)) {
          dashes++;
        } else if (typeof node.value === 'string' && words(node.value).includes('boundary')) {
          boundary = true;
        }
        return;
      case AST_NODE_TYPES.TemplateLiteral:
        node.quasis.forEach((quasi, index) => {
          if (index > 0 && (quasi.value.cooked ?? quasi.value.raw).startsWith('--')) closing = true;
        });
        node.expressions.forEach(visit);
        return;
      case AST_NODE_TYPES.MemberExpression:
        visit(node.object);
        if (node.computed) visit(node.property);
        else if (words(propertyName(node) ?? '').includes('boundary')) boundary = true;
        return;
      case AST_NODE_TYPES.CallExpression:
        visit(node.callee);
        node.arguments.forEach(visit);
        return;
      case AST_NODE_TYPES.BinaryExpression:
      case AST_NODE_TYPES.LogicalExpression:
      case AST_NODE_TYPES.AssignmentExpression:
        visit(node.left);
        visit(node.right);
        return;
      case AST_NODE_TYPES.UnaryExpression:
        // `!buffer.startsWith('--', …)`: the test holds where the end is not seen (its own atom says so).
        if (node.operator !== '!') visit(node.argument);
        return;
      case AST_NODE_TYPES.AwaitExpression:
        visit(node.argument);
        return;
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSAsExpression:
        visit(node.expression);
        return;
      default:
        return;
    }
  };
  visit(root);
  return boundary && (closing || dashes >= 2);
}

/** Not finished (`!sawDone`, `!done`): the branch is the abnormal one, its negation the completion. */
function negate(effects: TestEffects): TestEffects {
  const { pos, neg } = effects;
  if (pos.kind === 'gen') return { pos: KILL_ALL, neg: pos };
  if (pos.kind === 'kill') return { pos: KILL_ALL, neg: pos };
  if (pos.kind === 'killAll') return { pos: neg, neg: NONE };
  return { pos: neg, neg: pos };
}

function isTrueLiteral(left: Node, right: Node): boolean {
  return [left, right].some((side) => side.type === AST_NODE_TYPES.Literal && side.value === true);
}

/** Names, property names and string literals a test mentions (not inside nested functions). */
function collectTokens(root: Node, skipMember?: (member: TSESTree.MemberExpression) => boolean): string[] {
  const tokens: string[] = [];
  const visit = (node: Node | null | undefined): void => {
    if (!node) return;
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        tokens.push(node.name);
        return;
      case AST_NODE_TYPES.PrivateIdentifier:
        tokens.push(node.name);
        return;
      case AST_NODE_TYPES.Literal:
        if (typeof node.value === 'string') tokens.push(node.value);
        return;
      case AST_NODE_TYPES.TemplateLiteral:
        for (const quasi of node.quasis) tokens.push(quasi.value.cooked ?? quasi.value.raw);
        node.expressions.forEach((expression) => visit(expression));
        return;
      case AST_NODE_TYPES.MemberExpression:
        if (skipMember?.(node)) return;
        visit(node.object);
        if (node.computed) visit(node.property);
        else tokens.push(propertyName(node) ?? '');
        return;
      case AST_NODE_TYPES.CallExpression: {
        const name = calleeName(node.callee);
        if (name) tokens.push(name);
        const callee = unwrap(node.callee);
        if (callee?.type === AST_NODE_TYPES.MemberExpression) visit(callee.object);
        node.arguments.forEach((argument) => visit(argument));
        return;
      }
      case AST_NODE_TYPES.BinaryExpression:
      case AST_NODE_TYPES.LogicalExpression:
        visit(node.left);
        visit(node.right);
        return;
      case AST_NODE_TYPES.UnaryExpression:
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.UpdateExpression:
        visit(node.argument);
        return;
      case AST_NODE_TYPES.AssignmentExpression:
        visit(node.left);
        visit(node.right);
        return;
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        visit(node.expression);
        return;
      case AST_NODE_TYPES.ConditionalExpression:
        visit(node.test);
        visit(node.consequent);
        visit(node.alternate);
        return;
      default:
        return;
    }
  };
  visit(root);
  return tokens;
}

/**
 * JSON-RPC reply checks: `'result' in msg`, or a test that reads a message's `id` together with its `result` or
 * `error` (`msg.id === id && msg.error`). Predicates such as `isJSONRPCResponse(msg)` go through the patterns.
 */
function isJsonRpcReply(node: Node, tokens: readonly string[]): boolean {
  if (node.type === AST_NODE_TYPES.BinaryExpression && node.operator === 'in' && node.left.type === AST_NODE_TYPES.Literal && node.left.value === 'result') return true;
  return tokens.includes('id') && (tokens.includes('result') || tokens.includes('error')) && !tokens.includes('done');
}

export type { TSESTree };
