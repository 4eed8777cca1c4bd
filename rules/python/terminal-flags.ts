import { named } from './tree.js';
import { testMeaning } from './conditions.js';
import type { Node } from './parser.js';
import { lastName, unwrap } from './streams.js';

const NESTED_SCOPES = new Set(['function_definition', 'class_definition', 'lambda']);

function returns(body: Node): Node[] {
  const found: Node[] = [];
  const visit = (node: Node): void => {
    for (const child of named(node)) {
      if (NESTED_SCOPES.has(child.type)) continue;
      if (child.type === 'return_statement') found.push(child);
      else visit(child);
    }
  };
  visit(body);
  return found;
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
