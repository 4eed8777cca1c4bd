import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, propertyName, unwrap, type Node } from './ast.js';
import type { Family, StreamResolver } from './streams.js';
import type { TSESLint } from '@typescript-eslint/utils';
import { JSON_RPC_REPLY_TOKEN, exemptKind, matchesTerminal, type ExemptKind } from './words.js';

/** What entering a branch does to the "terminal event seen, EOF not yet" fact. */
export type Effect =
  | { kind: 'none' }
  | { kind: 'gen'; label: string }
  | { kind: 'kill'; family: Family }
  | { kind: 'killAll' }
  /** Classified only when its code path is solved, so files and functions without a close never classify a test. */
  | { kind: 'deferred'; resolve: () => Effect };

/** Effects on the branch taken when the test holds (`pos`) and when it does not (`neg`). */
export interface TestEffects {
  pos: Effect;
  neg: Effect;
}

const NONE: Effect = { kind: 'none' };
const KILL_ALL: Effect = { kind: 'killAll' };
const NEUTRAL: TestEffects = { pos: NONE, neg: NONE };

/** Both hold (`a && b` taken): the strongest kill wins, then a terminal event. */
function both(a: Effect, b: Effect): Effect {
  if (a.kind === 'killAll' || b.kind === 'killAll') return KILL_ALL;
  if (a.kind === 'kill') return a;
  if (b.kind === 'kill') return b;
  if (a.kind === 'gen') return a;
  return b;
}

/** Either holds (`a || b` taken): an exempt side keeps it quiet, otherwise a terminal side may have fired. */
function either(a: Effect, b: Effect): Effect {
  if (a.kind === 'killAll' || b.kind === 'killAll') return KILL_ALL;
  if (a.kind === 'gen') return a;
  if (b.kind === 'gen') return b;
  if (a.kind === 'kill' && b.kind === 'kill') return a;
  return NONE;
}

const RELATIONAL = new Set(['<', '<=', '>', '>=']);

export class BranchTestClassifier {
  private readonly cache = new Map<Node, TestEffects>();
  private readonly flags = new Map<TSESLint.Scope.Variable, boolean>();

  constructor(
    private readonly streams: StreamResolver,
    private readonly terminalPatterns: readonly RegExp[],
    private readonly labelOf: (node: Node) => string,
  ) {}

  classify(test: Node | null | undefined): TestEffects {
    if (!test) return NEUTRAL;
    let effects = this.cache.get(test);
    if (!effects) {
      effects = this.compute(test);
      this.cache.set(test, effects);
    }
    return effects;
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
    if (assignment.operator !== '=' || assignment.left.type !== 'Identifier') return null;
    const right = unwrap(assignment.right);
    if (right?.type !== 'Literal' || right.value !== true) return null;
    return this.isCompletionFlag(assignment.left) ? assignment.left.name : null;
  }

  private computeFlag(variable: TSESLint.Scope.Variable): boolean {
    if (variable.defs.length !== 1) return false;
    const def = variable.defs[0]!;
    if (def.type !== 'Variable' || (def.parent as TSESTree.VariableDeclaration).kind === 'const') return false;
    const declarator = def.node as TSESTree.VariableDeclarator;
    if (declarator.id !== def.name || !isBooleanLiteralOrNothing(declarator.init)) return false;
    if (!matchesTerminal(variable.name, this.terminalPatterns) || exemptKind(variable.name, true) !== null) return false;
    const home = variable.scope.variableScope;
    for (const reference of variable.references) {
      if (reference.from.variableScope !== home) return false;
      if (!reference.isWrite() || reference.init) continue;
      const assignment = reference.identifier.parent;
      if (assignment?.type !== 'AssignmentExpression' || assignment.operator !== '=' || !isBooleanLiteralOrNothing(assignment.right)) return false;
    }
    return true;
  }

  private compute(test: Node): TestEffects {
    const node = unwrap(test);
    if (!node) return NEUTRAL;
    if (node.type === 'UnaryExpression' && node.operator === '!') return negate(this.classify(node.argument));
    if (node.type === 'LogicalExpression' && node.operator !== '??') {
      // The shape check looks at a whole `&&` chain once (not at each of its sub-chains: linear in the test's size).
      if (node.operator === '&&' && !(node.parent?.type === 'LogicalExpression' && node.parent.operator === '&&')) {
        const reply = this.jsonRpcReply(node);
        if (reply) return reply;
      }
      const left = this.classify(node.left);
      const right = this.classify(node.right);
      return node.operator === '&&'
        ? { pos: both(left.pos, right.pos), neg: either(left.neg, right.neg) }
        : { pos: either(left.pos, right.pos), neg: both(left.neg, right.neg) };
    }
    if (node.type === 'BinaryExpression' && (node.operator === '!==' || node.operator === '!=')) {
      const effects = this.atom(node);
      // `res.status !== 200`, `err != null`: an exempt test stays exempt on its own side.
      return effects.pos.kind === 'killAll' ? effects : negate(effects);
    }
    return this.atom(node);
  }

  private atom(node: Node): TestEffects {
    const eof = this.streams.eofFamily(node);
    if (eof) return { pos: { kind: 'kill', family: eof }, neg: NONE };
    if (node.type === 'BinaryExpression') {
      const sideEof = this.streams.eofFamily(node.left as Node) ?? this.streams.eofFamily(node.right);
      if (sideEof && isTrueLiteral(node.left as Node, node.right)) return { pos: { kind: 'kill', family: sideEof }, neg: NONE };
    }
    if (node.type === 'Identifier' && this.isCompletionFlag(node)) return { pos: NONE, neg: KILL_ALL };
    const reply = this.jsonRpcReply(node);
    if (reply) return reply;
    const tokens = collectTokens(node);
    const comparison = node.type === 'BinaryExpression' && RELATIONAL.has(node.operator) && !isEmptinessCheck(node);
    let kind: ExemptKind = null;
    for (const token of tokens) {
      const tokenKind = exemptKind(token, comparison);
      if (tokenKind === 'abnormal') return { pos: KILL_ALL, neg: NONE };
      kind ??= tokenKind;
    }
    if (kind === 'success') return { pos: NONE, neg: KILL_ALL };
    if (tokens.some((token) => matchesTerminal(token, this.terminalPatterns))) {
      return { pos: { kind: 'gen', label: this.labelOf(node) }, neg: NONE };
    }
    return NEUTRAL;
  }

  /** A JSON-RPC reply check by shape, when the completion patterns recognise replies (the defaults do). */
  private jsonRpcReply(node: Node): TestEffects | null {
    if (!isJsonRpcReply(node, collectTokens(node)) || !matchesTerminal(JSON_RPC_REPLY_TOKEN, this.terminalPatterns)) return null;
    return { pos: { kind: 'gen', label: this.labelOf(node) }, neg: NONE };
  }
}

/** `buf.length > 0`, `count < 1`: about emptiness, not a size or count limit. */
function isEmptinessCheck(node: TSESTree.BinaryExpression): boolean {
  return [node.left, node.right].some((side) => side.type === 'Literal' && (side.value === 0 || side.value === 1));
}

function isBooleanLiteralOrNothing(node: Node | null | undefined): boolean {
  const value = unwrap(node);
  if (!value) return true;
  if (value.type === 'Literal') return typeof value.value === 'boolean';
  return value.type === 'Identifier' && value.name === 'undefined';
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
  return [left, right].some((side) => side.type === 'Literal' && side.value === true);
}

/** Names, property names and string literals a test mentions (not inside nested functions). */
function collectTokens(root: Node): string[] {
  const tokens: string[] = [];
  const visit = (node: Node | null | undefined): void => {
    if (!node) return;
    switch (node.type) {
      case 'Identifier':
        tokens.push(node.name);
        return;
      case 'PrivateIdentifier':
        tokens.push(node.name);
        return;
      case 'Literal':
        if (typeof node.value === 'string') tokens.push(node.value);
        return;
      case 'TemplateLiteral':
        for (const quasi of node.quasis) tokens.push(quasi.value.cooked ?? quasi.value.raw);
        node.expressions.forEach((expression) => visit(expression as Node));
        return;
      case 'MemberExpression':
        visit(node.object);
        if (node.computed) visit(node.property);
        else tokens.push(propertyName(node) ?? '');
        return;
      case 'CallExpression': {
        const name = calleeName(node.callee);
        if (name) tokens.push(name);
        const callee = unwrap(node.callee);
        if (callee?.type === 'MemberExpression') visit(callee.object);
        node.arguments.forEach((argument) => visit(argument as Node));
        return;
      }
      case 'BinaryExpression':
      case 'LogicalExpression':
        visit(node.left as Node);
        visit(node.right);
        return;
      case 'UnaryExpression':
      case 'AwaitExpression':
      case 'UpdateExpression':
        visit(node.argument);
        return;
      case 'AssignmentExpression':
        visit(node.left as Node);
        visit(node.right);
        return;
      case 'ChainExpression':
      case 'TSNonNullExpression':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion':
        visit(node.expression);
        return;
      case 'ConditionalExpression':
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
  if (node.type === 'BinaryExpression' && node.operator === 'in' && node.left.type === 'Literal' && node.left.value === 'result') return true;
  return tokens.includes('id') && (tokens.includes('result') || tokens.includes('error')) && !tokens.includes('done');
}

export type { TSESTree };
