import { collectBindings, named, ownDescendants } from './tree.js';
import { casePatternMeaning, testMeaning } from './conditions.js';
import { isExemptPath } from './exempt.js';
import type { Node } from './parser.js';
import { lastName, unwrap } from './streams.js';

const NESTED_SCOPES = new Set(['function_definition', 'class_definition', 'lambda']);

function returns(body: Node): Node[] {
  return ownDescendants(body, ['return_statement']);
}

/** The values a return gives, by position (one for `return x`, several for `return a, b, c`). */
function returned(statement: Node): Node[] {
  const value = named(statement)[0];
  if (!value) return [];
  const inner = value.type === 'parenthesized_expression' ? (named(value)[0] ?? value) : value;
  return inner.type === 'expression_list' || inner.type === 'tuple' ? named(inner) : [inner];
}

/** Whether a statement sits in the branch of an `if`/`elif` whose test recognises a terminal event. */
function inTerminalBranch(statement: Node, body: Node, patterns: readonly RegExp[]): boolean {
  for (let child = statement, parent = statement.parent; parent && parent.id !== body.id; child = parent, parent = parent.parent) {
    if ((parent.type === 'if_statement' || parent.type === 'elif_clause') && parent.childForFieldName('consequence')?.id === child.id) {
      const test = parent.childForFieldName('condition');
      return test !== null && testMeaning(test, patterns).terminal !== null;
    }
  }
  return false;
}

/**
 * Functions of a module that report a terminal event through what they return (Speakeasy's
 * `_parse_event`: `if sentinel and data == sentinel: return None, True, event_id`, else `False` there):
 * by name, the positions of the returned tuple that are such a flag (-1: the whole return value).
 */
export function terminalReturns(functions: readonly Node[], patterns: readonly RegExp[]): Map<string, Set<number>> {
  const flagged = new Map<string, Set<number>>();
  for (const fn of functions) {
    const body = fn.childForFieldName('body');
    const name = fn.childForFieldName('name')?.text;
    if (!body || !name || !/\breturn\b/.test(body.text) || !/\bTrue\b/.test(body.text)) continue;
    const all = returns(body).map((statement) => ({ statement, values: returned(statement) }));
    const positions = new Set<number>();
    for (const { statement, values } of all) {
      if (!inTerminalBranch(statement, body, patterns)) continue;
      values.forEach((value, index) => {
        if (value.type !== 'true') return;
        const position = values.length === 1 ? -1 : index;
        // Every other return gives something else there: the position says "the terminal event was seen".
        const others = all.filter((other) => other.statement.id !== statement.id);
        if (others.length > 0 && others.every((other) => other.values.length === values.length && other.values[index]?.type !== 'true')) positions.add(position);
      });
    }
    if (positions.size > 0) flagged.set(name, positions);
  }
  return flagged;
}

/** The names a function body binds to such a flag (`event, discard, event_id = _parse_event(...)` binds `discard`). */
export function terminalFlagNames(body: Node, flagged: ReadonlyMap<string, ReadonlySet<number>>): Set<string> {
  const names = new Set<string>();
  if (flagged.size === 0) return names;
  const visit = (node: Node): void => {
    for (const child of named(node)) {
      if (NESTED_SCOPES.has(child.type)) continue;
      if (child.type === 'assignment') {
        const target = child.childForFieldName('left');
        const value = child.childForFieldName('right');
        const call = value ? unwrap(value) : null;
        const callee = call?.type === 'call' ? call.childForFieldName('function') : null;
        const positions = callee ? flagged.get(lastName(callee)) : undefined;
        if (target && positions) {
          const targets = target.type === 'pattern_list' || target.type === 'tuple_pattern' ? named(target) : [target];
          for (const position of positions) {
            const bound = position === -1 ? (targets.length === 1 ? targets[0] : undefined) : targets[position];
            if (bound?.type === 'identifier') names.add(bound.text);
          }
        }
      }
      visit(child);
    }
  };
  visit(body);
  return names;
}

/** A value that leaves a flag unset: `False`, `None`, `0`, `""`. */
export function isFalsy(value: Node): boolean {
  return value.type === 'false' || value.type === 'none' || (value.type === 'integer' && Number(value.text) === 0) || (value.type === 'string' && value.text.length <= 3 && /^[rbuf]*(""|'')$/i.test(value.text));
}

/** Whether a statement sits where a terminal event was recognised: the true branch of a terminal test, the `else` of a negated one, a terminal `case`. */
function onTerminalEvent(node: Node, body: Node, patterns: readonly RegExp[]): boolean {
  return terminalTestOf(node, body, patterns) !== null;
}

/** The test (or `case` pattern) that recognises the terminal event a statement sits after, innermost first, or null. */
export function terminalTestOf(node: Node, body: Node, patterns: readonly RegExp[]): Node | null {
  for (let child = node, parent = node.parent; parent && parent.id !== body.id; child = parent, parent = parent.parent) {
    if ((parent.type === 'if_statement' || parent.type === 'elif_clause') && parent.childForFieldName('consequence')?.id === child.id) {
      const test = parent.childForFieldName('condition');
      if (test && testMeaning(test, patterns).terminal !== null) return test;
    } else if (parent.type === 'else_clause' && parent.parent?.type === 'if_statement') {
      const test = parent.parent.childForFieldName('condition');
      if (test && testMeaning(test, patterns).negTerminal !== null) return test;
    } else if (parent.type === 'case_clause') {
      const pattern = named(parent).find((part) => part.type === 'case_pattern');
      if (pattern && casePatternMeaning(pattern, patterns).terminal !== null) return pattern;
    }
  }
  return null;
}

/**
 * Local flags named for the terminal event (`done`, `finished`, `is_complete`: what the terminal patterns
 * recognise) that a function sets where no terminal event came: `done = True` in an `except` block, in a
 * branch about an error, an abort or another worker's failure, in a `finally`, or anywhere outside a
 * terminal branch; or `finished = failed.is_set()`, a value about a failure. A test of such a flag is no
 * terminal event: a close it guards may follow an error, and a drain must never be added there. A flag set
 * only at the terminal event (`if data == "[DONE]": done = True`), or to what a handler of the event says
 * (`is_complete = await handle(sse)`), still counts.
 */
export function untrustedFlags(body: Node, patterns: readonly RegExp[]): Set<string> {
  const untrusted = new Set<string>();
  const meaning = (test: Node) => testMeaning(test, patterns);
  for (const { target, value } of collectBindings(body)) {
    if (target.type !== 'identifier' || untrusted.has(target.text) || testMeaning(target, patterns).terminal === null) continue;
    const inner = unwrap(value);
    if (isFalsy(inner)) continue;
    const literal = inner.type === 'true' || inner.type === 'integer' || inner.type === 'string';
    const setOffTerminal = literal ? !onTerminalEvent(target, body, patterns) : testMeaning(inner, patterns).exemptTrue || aboutFailure(inner, patterns);
    if (setOffTerminal || isExemptPath(target, body, meaning) || inFinally(target, body)) untrusted.add(target.text);
  }
  return untrusted;
}

/** A call on something named for a failure (`failed.is_set()`, `error_event.is_set()`): the value says whether it failed. */
function aboutFailure(value: Node, patterns: readonly RegExp[]): boolean {
  const callee = value.type === 'call' ? value.childForFieldName('function') : null;
  const names: Node[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'identifier') names.push(node);
    else if (node.type === 'attribute') for (const part of named(node)) visit(part);
  };
  if (callee) visit(callee);
  return names.some((name) => testMeaning(name, patterns).exemptTrue);
}

function inFinally(node: Node, body: Node): boolean {
  for (let parent = node.parent; parent && parent.id !== body.id; parent = parent.parent) if (parent.type === 'finally_clause') return true;
  return false;
}
