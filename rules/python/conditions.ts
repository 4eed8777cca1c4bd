import { JSON_RPC_REPLY_MEMBERS, JSON_RPC_REPLY_TOKEN, exemptKind, matchesTerminal } from '../contract/vocabulary.js';
import type { Node } from './parser.js';
import { lastName } from './streams.js';
import { named } from './tree.js';

/** What a Python test (`if`, `elif`, `while`, `case`) says about the stream, for each of its two outcomes. */
export interface TestMeaning {
  /** The terminal event the test recognises when it is true (`if is_complete:`), or null. */
  terminal: string | null;
  /** The terminal event it recognises when it is false (`if not is_complete: continue`), or null. */
  negTerminal: string | null;
  /** The true branch is an exempt path (errors, cancellation, timeouts, limits, a not-finished guard). */
  exemptTrue: boolean;
  /** The false branch is an exempt path (`if response.is_success:` … `else:`). */
  exemptFalse: boolean;
}

const NEUTRAL: TestMeaning = Object.freeze({ terminal: null, negTerminal: null, exemptTrue: false, exemptFalse: false });
/**
 * A flag named for the terminal event that the function also sets on an error, abort or failure path
 * (terminal-flags.ts): its being set says nothing about the terminal event, and its not being set is still
 * the not-finished side (`if not done:` guards a close on the paths that did not finish).
 */
const UNTRUSTED_FLAG: TestMeaning = Object.freeze({ terminal: null, negTerminal: null, exemptTrue: false, exemptFalse: true });
const NO_NAMES: ReadonlySet<string> = new Set();
const NEGATING_OPERATORS = new Set(['!=', 'not in', 'is not']);
const RELATIONAL_OPERATORS = new Set(['<', '>', '<=', '>=']);
/** Clock readings: a relational test against one is a timeout test, whatever its names. */
const CLOCK_CALLS = /(^|\.)(monotonic|perf_counter|time|current_time|now|loop\.time)$/;
const REPLY_LOOKUPS = new Set(['get', 'pop', '__contains__']);
/** Calls that read a member by its key (`event.get("type")`). */
const KEY_LOOKUPS = new Set(['get', 'pop']);

function negate(meaning: TestMeaning): TestMeaning {
  return { terminal: meaning.negTerminal, negTerminal: meaning.terminal, exemptTrue: meaning.exemptFalse, exemptFalse: meaning.exemptTrue };
}

function stringContent(node: Node): string | null {
  if (node.type !== 'string') return null;
  if (node.namedChildren.some((child) => child?.type === 'interpolation')) return null;
  return node.namedChildren
    .filter((child) => child?.type === 'string_content')
    .map((child) => child.text)
    .join('');
}

/** A meaning from the tokens a test names: the first abnormal word wins, then a terminal word. */
function fromTokens(tokens: readonly string[], patterns: readonly RegExp[], comparison: boolean): TestMeaning {
  let terminal: string | null = null;
  let success = false;
  for (const token of tokens) {
    const kind = exemptKind(token, comparison);
    if (kind === 'abnormal') return { ...NEUTRAL, exemptTrue: true };
    if (kind === 'success') success = true;
    else if (terminal === null && (token === JSON_RPC_REPLY_TOKEN || matchesTerminal(token, patterns))) terminal = token;
  }
  if (success && terminal === null) return { ...NEUTRAL, exemptFalse: true };
  return terminal === null ? NEUTRAL : { ...NEUTRAL, terminal, exemptTrue: false };
}

/** The names and strings an operand of a test stands for (`sse.data` -> `data`, `"[DONE]"`, `msg["type"]` -> `type`). */
function operandTokens(node: Node, out: string[]): void {
  switch (node.type) {
    case 'identifier':
      out.push(node.text);
      return;
    case 'attribute': {
      const name = node.childForFieldName('attribute');
      if (name) out.push(name.text);
      return;
    }
    case 'string': {
      const content = stringContent(node);
      if (content) out.push(content);
      return;
    }
    case 'subscript': {
      const value = node.childForFieldName('value');
      if (value) operandTokens(value, out);
      for (const index of node.childrenForFieldName('subscript')) if (index) operandTokens(index, out);
      return;
    }
    case 'parenthesized_expression':
    case 'await':
    case 'tuple':
    case 'list':
    case 'set':
    case 'binary_operator':
      for (const child of node.namedChildren) if (child) operandTokens(child, out);
      return;
    case 'call': {
      const callee = node.childForFieldName('function');
      if (callee) operandTokens(callee, out);
      // `delta.get("stop_reason")` reads a member as `delta["stop_reason"]` does.
      if (callee?.type === 'attribute' && KEY_LOOKUPS.has(lastName(callee))) {
        const key = named(node.childForFieldName('arguments'))[0];
        const content = key ? stringContent(key) : null;
        if (content) out.push(content);
      }
      return;
    }
    default:
      return;
  }
}

function calleeName(call: Node): string {
  const callee = call.childForFieldName('function');
  if (!callee) return '';
  if (callee.type === 'attribute') return callee.childForFieldName('attribute')?.text ?? '';
  return callee.text;
}

function callMeaning(call: Node, patterns: readonly RegExp[]): TestMeaning {
  const name = calleeName(call);
  const args = call.childForFieldName('arguments')?.namedChildren.filter((arg): arg is Node => arg !== null) ?? [];
  const tokens: string[] = [];
  if (name === 'isinstance' || name === 'issubclass') {
    // isinstance(msg, JSONRPCResponse | JSONRPCError), isinstance(exc, (asyncio.CancelledError, TimeoutError))
    if (args[1]) operandTokens(args[1], tokens);
    return fromTokens(tokens, patterns, false);
  }
  if (name === 'done' && args.length === 0 && call.childForFieldName('function')?.type === 'attribute') {
    // `ready.done()`, `task.done()`: the state of a future or task (asyncio, concurrent.futures), not an event of a
    // body. The receiver's name can still make it an error or cancel test (`cancelled.done()`).
    const receiver = call.childForFieldName('function')!.childForFieldName('object');
    if (receiver) operandTokens(receiver, tokens);
    return { ...fromTokens(tokens, patterns, false), terminal: null, negTerminal: null };
  }
  const strings = args.map(stringContent).filter((text): text is string => text !== null);
  if (REPLY_LOOKUPS.has(name) && strings.some((text) => JSON_RPC_REPLY_MEMBERS.includes(text))) {
    return fromTokens(strings.map((text) => (text === 'result' ? JSON_RPC_REPLY_TOKEN : text)), patterns, false);
  }
  if (name) tokens.push(name);
  tokens.push(...strings);
  // A predicate given the value it tests (`is_jsonrpc_response(msg)`) speaks through its name; `startswith("[DONE]")` through its string.
  return fromTokens(tokens.filter((token) => token !== 'startswith' && token !== 'endswith'), patterns, false);
}

function comparisonMeaning(node: Node, patterns: readonly RegExp[]): TestMeaning {
  const operands = node.namedChildren.filter((child): child is Node => child !== null);
  const operators = node.children.filter((child) => child && !child.isNamed).map((child) => child.type);
  const operator = operators.join(' ');
  const text = node.text;
  if (RELATIONAL_OPERATORS.has(operators[0] ?? '')) {
    const clock = operands.some((operand) => containsCall(operand, (name) => CLOCK_CALLS.test(name)));
    if (clock) return { ...NEUTRAL, exemptTrue: true };
  }
  if (operands.some((operand) => operand.type === 'none')) {
    // Comparing a value with None is neutral about completion; its names may still make it an error test.
    const tokens: string[] = [];
    for (const operand of operands) operandTokens(operand, tokens);
    const meaning = fromTokens(tokens, patterns, false);
    return { ...meaning, terminal: null, negTerminal: null };
  }
  const tokens: string[] = [];
  const first = operands[0];
  const firstString = first ? stringContent(first) : null;
  if ((operator === 'in' || operator === 'not in') && firstString !== null && JSON_RPC_REPLY_MEMBERS.includes(firstString)) {
    // "result" in msg: a JSON-RPC reply check ("error" in msg names an error, which a disjunction with a reply still is).
    tokens.push(firstString === 'result' ? JSON_RPC_REPLY_TOKEN : firstString);
  } else {
    for (const operand of operands) operandTokens(operand, tokens);
  }
  const meaning = fromTokens(tokens, patterns, RELATIONAL_OPERATORS.has(operators[0] ?? '') || /len\(/.test(text));
  return operators.length === 1 && NEGATING_OPERATORS.has(operator) ? negate(meaning) : meaning;
}

function containsCall(node: Node, test: (name: string) => boolean): boolean {
  if (node.type === 'call') {
    const callee = node.childForFieldName('function');
    if (callee && test(callee.text)) return true;
  }
  return node.namedChildren.some((child) => child !== null && containsCall(child, test));
}

/**
 * The meaning of a test expression. `untrusted`: local flags named for the terminal event that are also set
 * off it (`done = True` in an `except` block): a test of one is no terminal event.
 */
export function testMeaning(node: Node, patterns: readonly RegExp[], untrusted: ReadonlySet<string> = NO_NAMES): TestMeaning {
  switch (node.type) {
    case 'parenthesized_expression':
    case 'await': {
      const inner = node.namedChildren.find((child) => child !== null && child.type !== 'comment');
      return inner ? testMeaning(inner, patterns, untrusted) : NEUTRAL;
    }
    case 'named_expression': {
      const value = node.childForFieldName('value');
      const name = node.childForFieldName('name');
      const byValue = value ? testMeaning(value, patterns, untrusted) : NEUTRAL;
      return byValue === NEUTRAL && name ? fromTokens([name.text], patterns, false) : byValue;
    }
    case 'not_operator': {
      const argument = node.childForFieldName('argument');
      return argument ? negate(testMeaning(argument, patterns, untrusted)) : NEUTRAL;
    }
    case 'boolean_operator': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const operator = node.childForFieldName('operator')?.type;
      const l = left ? testMeaning(left, patterns, untrusted) : NEUTRAL;
      const r = right ? testMeaning(right, patterns, untrusted) : NEUTRAL;
      if (operator === 'or') {
        // Exempt only when every way it can be true is exempt: a terminal alternative makes it a terminal event.
        return {
          terminal: l.terminal ?? r.terminal,
          negTerminal: l.negTerminal ?? r.negTerminal,
          exemptTrue: l.exemptTrue && r.exemptTrue,
          exemptFalse: l.exemptFalse || r.exemptFalse,
        };
      }
      return {
        terminal: l.terminal ?? r.terminal,
        negTerminal: l.negTerminal && r.negTerminal ? l.negTerminal : null,
        exemptTrue: l.exemptTrue || r.exemptTrue,
        exemptFalse: l.exemptFalse && r.exemptFalse,
      };
    }
    case 'comparison_operator':
      return comparisonMeaning(node, patterns);
    case 'call':
      return callMeaning(node, patterns);
    case 'identifier':
      if (untrusted.has(node.text)) return UNTRUSTED_FLAG;
      return fromTokens([node.text], patterns, false);
    case 'attribute':
    case 'subscript':
    case 'string': {
      const tokens: string[] = [];
      operandTokens(node, tokens);
      return fromTokens(tokens, patterns, false);
    }
    default:
      return NEUTRAL;
  }
}

/** The meaning of a `case` pattern: the class names and strings it matches (`case JSONRPCResponse():`, `case {"type": "message_stop"}:`). */
export function casePatternMeaning(pattern: Node, patterns: readonly RegExp[]): TestMeaning {
  const tokens: string[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'identifier' || node.type === 'dotted_name') tokens.push(node.text.split('.').pop()!);
    else if (node.type === 'string') {
      const content = stringContent(node);
      if (content) tokens.push(content === 'result' ? JSON_RPC_REPLY_TOKEN : content);
    } else for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(pattern);
  return fromTokens(tokens, patterns, false);
}

export { stringContent };
