import type { TSESTree } from '@typescript-eslint/utils';
import { calleeName, propertyName, unwrap, type Node } from './ast.js';
import type { Family, StreamResolver } from './streams.js';
import { isExemptToken, matchesTerminal } from './words.js';

/** What entering a branch does to the "terminal event seen, EOF not yet" fact. */
export type Effect =
  | { kind: 'none' }
  | { kind: 'gen'; label: string }
  | { kind: 'kill'; family: Family }
  | { kind: 'killAll' };

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

export class BranchTestClassifier {
  private readonly cache = new Map<Node, TestEffects>();

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

  private compute(test: Node): TestEffects {
    const node = unwrap(test);
    if (!node) return NEUTRAL;
    if (node.type === 'UnaryExpression' && node.operator === '!') return negate(this.classify(node.argument));
    if (node.type === 'LogicalExpression' && node.operator !== '??') {
      const left = this.classify(node.left);
      const right = this.classify(node.right);
      return node.operator === '&&'
        ? { pos: both(left.pos, right.pos), neg: either(left.neg, right.neg) }
        : { pos: either(left.pos, right.pos), neg: both(left.neg, right.neg) };
    }
    if (node.type === 'BinaryExpression' && (node.operator === '!==' || node.operator === '!=')) {
      return negate(this.atom(node));
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
    const tokens = collectTokens(node);
    if (tokens.some(isExemptToken)) return { pos: KILL_ALL, neg: NONE };
    if (isJsonRpcReply(node, tokens) || tokens.some((token) => matchesTerminal(token, this.terminalPatterns))) {
      return { pos: { kind: 'gen', label: this.labelOf(node) }, neg: NONE };
    }
    return NEUTRAL;
  }
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
        visit(node.argument);
        return;
      case 'ChainExpression':
      case 'TSNonNullExpression':
      case 'TSAsExpression':
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

/** JSON-RPC reply checks: `'result' in msg`, `msg.id !== undefined && msg.result`, `isJSONRPCResponse(msg)` (the last via patterns). */
function isJsonRpcReply(node: Node, tokens: readonly string[]): boolean {
  if (node.type === 'BinaryExpression' && node.operator === 'in' && node.left.type === 'Literal' && node.left.value === 'result') return true;
  return tokens.includes('result') && tokens.includes('id') && !tokens.includes('done');
}

export type { TSESTree };
