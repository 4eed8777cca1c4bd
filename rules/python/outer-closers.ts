import { isResponseName } from '../contract/vocabulary.js';
import type { PythonAnalysisOptions } from './options.js';
import type { OuterCloser } from './frames.js';
import { collectBindings, isAsync, named } from './tree.js';
import type { Node } from './parser.js';
import { StreamScope, lastName } from './streams.js';

const NESTED_SCOPES = new Set(['function_definition', 'class_definition', 'lambda']);
const SIMPLE_REFERENCE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const NO_NAMES = new StreamScope([]);

function functionName(fn: Node): string {
  return fn.childForFieldName('name')?.text ?? '<lambda>';
}

function containingFunction(node: Node): string {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent.type === 'function_definition') return `\`${functionName(parent)}\``;
  return 'the module';
}

/** The names of the parameters a call can fill by position, in order (up to `*`, `*args` or `**kwargs`). */
function positionalParameters(fn: Node): string[] {
  const names: string[] = [];
  for (const param of named(fn.childForFieldName('parameters'))) {
    if (param.type === 'identifier') names.push(param.text);
    else if (param.type === 'typed_parameter') names.push(named(param)[0]?.text ?? '');
    else if (param.type === 'default_parameter' || param.type === 'typed_default_parameter') names.push(param.childForFieldName('name')?.text ?? '');
    else if (param.type === 'positional_separator') continue;
    else break;
  }
  return names;
}

function allParameters(fn: Node): Set<string> {
  const names = new Set(positionalParameters(fn));
  for (const param of named(fn.childForFieldName('parameters'))) {
    const name = param.type === 'default_parameter' || param.type === 'typed_default_parameter' ? param.childForFieldName('name')?.text : param.type === 'typed_parameter' ? named(param)[0]?.text : param.type === 'identifier' ? param.text : undefined;
    if (name) names.add(name);
  }
  return names;
}

function isMethod(fn: Node): boolean {
  let parent = fn.parent;
  if (parent?.type === 'decorated_definition') parent = parent.parent;
  return parent?.type === 'block' && parent.parent?.type === 'class_definition';
}

/** Visits the calls and `with` items of a function body, not those of functions nested in it. */
function visit(node: Node, onCall: (call: Node) => void, onWith: (statement: Node) => void): void {
  for (const child of named(node)) {
    if (NESTED_SCOPES.has(child.type)) continue;
    visit(child, onCall, onWith);
  }
  if (node.type === 'call') onCall(node);
  else if (node.type === 'with_statement') onWith(node);
}

/** The `with … as NAME` targets of a `with` statement, with their values. */
function withTargets(statement: Node): { name: string; value: Node }[] {
  const targets: { name: string; value: Node }[] = [];
  const clause = named(statement).find((child) => child.type === 'with_clause');
  for (const item of named(clause ?? null)) {
    const value = item.childForFieldName('value');
    if (value?.type !== 'as_pattern') continue;
    const target = named(value.childForFieldName('alias'))[0];
    const source = named(value)[0];
    if (target?.type === 'identifier' && source) targets.push({ name: target.text, value: source });
  }
  return targets;
}

/**
 * Closes from outside a function (see OuterCloser), by function node id:
 * - a function nested in a `with` that owns a response (`with client.stream(...) as response:`),
 *   which the enclosing function's `with` closes once the nested function (a generator, say) stops;
 * - a function called with a response that its caller (a function in the same module) closes.
 * `candidates` are the function bodies that may hold a site themselves (only they can close what they pass on).
 */
export function outerClosers(functions: readonly Node[], candidates: readonly Node[], options: PythonAnalysisOptions): Map<number, OuterCloser[]> {
  const closers = new Map<number, OuterCloser[]>();
  const add = (fn: Node, closer: OuterCloser): void => {
    const list = closers.get(fn.id) ?? [];
    if (!list.some((known) => known.stream === closer.stream)) list.push(closer);
    closers.set(fn.id, list);
  };

  for (const fn of functions) {
    const body = fn.childForFieldName('body');
    if (!body || !/\bfor\b/.test(body.text) || !/\b(?:return|break)\b/.test(body.text)) continue;
    const own = allParameters(fn);
    for (let node = fn.parent; node && node.type !== 'module'; node = node.parent) {
      if (node.type !== 'with_statement') continue;
      for (const { name, value } of withTargets(node)) {
        if (own.has(name) || !(NO_NAMES.isSource(value, isAsync(node)) || isResponseName(name))) continue;
        add(fn, { stream: name, by: `the \`${isAsync(node) ? 'async with' : 'with'}\` of ${containingFunction(node)}` });
      }
    }
  }

  const byName = new Map<string, Node[]>();
  for (const fn of functions) {
    const name = functionName(fn);
    byName.set(name, [...(byName.get(name) ?? []), fn]);
  }
  for (const body of candidates) {
    const caller = body.parent;
    if (!caller) continue;
    const scope = new StreamScope(collectBindings(body));
    const closed = new Set<string>();
    const calls: Node[] = [];
    visit(
      body,
      (call) => {
        calls.push(call);
        const close = StreamScope.closeCall(call, options.closeMethods);
        if (close) closed.add(close.receiver.text);
      },
      (statement) => {
        for (const { name } of withTargets(statement)) closed.add(name);
      },
    );
    for (const call of calls) {
      const callee = call.childForFieldName('function');
      const targets = callee ? byName.get(lastName(callee)) : undefined;
      if (!callee || !targets) continue;
      const args = named(call.childForFieldName('arguments'));
      for (const target of targets) {
        if (target.id === caller.id) continue;
        const positional = positionalParameters(target);
        const offset = callee.type === 'attribute' && isMethod(target) && /^(self|cls)$/.test(positional[0] ?? '') ? 1 : 0;
        args.forEach((arg, index) => {
          const keyword = arg.type === 'keyword_argument';
          const value = keyword ? arg.childForFieldName('value') : arg;
          if (!value || !SIMPLE_REFERENCE.test(value.text) || !closed.has(value.text) || !scope.isStream(value)) return;
          const param = keyword ? arg.childForFieldName('name')?.text : positional[index + offset];
          if (!param || (keyword && !allParameters(target).has(param))) return;
          add(target, { stream: param, by: `the caller \`${functionName(caller)}\` (line ${call.startPosition.row + 1})` });
        });
      }
    }
  }
  return closers;
}
