import { isResponseName, words } from '../contract/vocabulary.js';
import type { PythonAnalysisOptions } from './options.js';
import type { OuterCloser } from './frames.js';
import { collectBindings, isAsync, named, ownDescendants } from './tree.js';
import type { Node } from './parser.js';
import { classOf, type ModuleFacts } from './module.js';
import { DERIVED_METHOD, StreamScope, lastName, unwrap } from './streams.js';

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

/** The response a call reads to its end: `response.read()`, `await response.aread()`, `_drain_response(response, lines)`. */
function drainedBy(call: Node): string | null {
  const callee = call.childForFieldName('function');
  if (!callee) return null;
  const args = named(call.childForFieldName('arguments'));
  const name = lastName(callee);
  if ((name === 'read' || name === 'aread') && args.length === 0 && callee.type === 'attribute') return callee.childForFieldName('object')?.text ?? null;
  if (!words(name).some((word) => word === 'drain' || word === 'adrain')) return null;
  const first = args[0];
  return first && first.type !== 'keyword_argument' && SIMPLE_REFERENCE.test(first.text) ? first.text : null;
}

/** Visits the calls and `with` statements of a function body, not those of functions nested in it. */
function visit(body: Node, onCall: (call: Node) => void, onWith: (statement: Node) => void): void {
  for (const node of ownDescendants(body, ['call', 'with_statement'])) {
    if (node.type === 'call') onCall(node);
    else onWith(node);
  }
}

/**
 * Whether a close from outside can matter to a function: a site needs a jump out of a `for` loop (which the outer close
 * then closes), a close call, or a `raise StopIteration` (on a response the outer close makes known by its name).
 */
function mayUseCloser(fn: Node, options: PythonAnalysisOptions): boolean {
  const text = fn.childForFieldName('body')?.text ?? '';
  return (/\bfor\b/.test(text) && /\b(?:return|break)\b/.test(text)) || options.explicitClose.test(text) || /\braise\s+Stop(?:Async)?Iteration\b/.test(text);
}

/**
 * The functions of the module a caller's close can matter to, and a text test for calls of them or of the classes with
 * such a method (null: none).
 */
function callees(module: ModuleFacts, options: PythonAnalysisOptions): { ids: Set<number>; calls: RegExp } | null {
  const ids = new Set<number>();
  const names = new Set<string>();
  for (const fn of module.functions) {
    if (!mayUseCloser(fn, options)) continue;
    ids.add(fn.id);
    const name = fn.childForFieldName('name')?.text;
    if (name) names.add(name);
    const cls = classOf(fn);
    const className = cls?.childForFieldName('name')?.text;
    if (className) names.add(className);
  }
  // Names may hold any letter (not only those of \\b); a line continuation may stand between a name and its arguments.
  return names.size === 0 ? null : { ids, calls: new RegExp(`(?<!\\p{ID_Continue})(?:${[...names].join('|')})[\\s\\\\]*\\(`, 'u') };
}

/** Text that can hold a call `drainedBy` takes. */
const DRAIN_TEXT = /(?<!\p{ID_Continue})a?read[\s\\]*\(|drain/iu;

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
 * - a function called with a response, or an iterator over one (`response.iter_lines()`), that its caller (a function
 *   in the same module) closes, by its `with` or a close call: `with client.stream(...) as response: yield from
 *   events(response)`;
 * - the methods of a class whose constructor a caller gives such a response (`yield from EventSource(response)`), which
 *   read it by the attribute the constructor keeps it in (`self.response`).
 * `callers` are the function bodies that may own or close a response (only they can close what they pass on).
 */
export function outerClosers(module: ModuleFacts, callers: readonly Node[], options: PythonAnalysisOptions): Map<number, OuterCloser[]> {
  const closers = new Map<number, { closer: OuterCloser; async: boolean | null }[]>();
  /** One closer per stream name; a caller of the method's own flavour (sync or async) is preferred. */
  const add = (fn: Node, closer: OuterCloser, callerAsync: boolean | null = null): void => {
    const list = closers.get(fn.id) ?? [];
    const index = list.findIndex((known) => known.closer.stream === closer.stream);
    const matches = callerAsync !== null && callerAsync === isAsync(fn);
    if (index === -1) list.push({ closer, async: callerAsync });
    else if (matches && list[index].async !== isAsync(fn)) list[index] = { closer, async: callerAsync };
    closers.set(fn.id, list);
  };

  for (const fn of module.functions) {
    const body = fn.childForFieldName('body');
    if (!body || !/\bfor\b/.test(body.text) || !/\b(?:return|break)\b/.test(body.text)) continue;
    let own: Set<string> | null = null;
    for (let node = fn.parent; node && node.type !== 'module'; node = node.parent) {
      if (node.type !== 'with_statement') continue;
      for (const { name, value } of withTargets(node)) {
        own ??= allParameters(fn);
        if (own.has(name) || !(NO_NAMES.isSource(value, isAsync(node)) || module.isSource(lastName(value.type === 'call' ? (value.childForFieldName('function') ?? value) : value)) || isResponseName(name))) continue;
        add(fn, { stream: name, by: `the \`${isAsync(node) ? 'async with' : 'with'}\` of ${containingFunction(node)}` });
      }
    }
  }

  const usable = callees(module, options);
  for (const body of usable ? callers : []) {
    const caller = body.parent;
    const text = body.text;
    if (!caller || !usable!.calls.test(text)) continue;
    const calls: Node[] = [];
    const withs: Node[] = [];
    visit(
      body,
      (call) => calls.push(call),
      (statement) => withs.push(statement),
    );
    // The calls of the module's functions and classes that a close can matter to; most callers make none, and need
    // nothing more worked out.
    const called = calls.flatMap((call) => {
      const callee = call.childForFieldName('function');
      if (!callee) return [];
      const name = lastName(callee);
      const targets = module.named(name);
      const cls = targets.length === 0 ? module.classNamed(name) : undefined;
      const matters = targets.some((target) => usable!.ids.has(target.id)) || (cls !== undefined && module.methods(cls).some((method) => usable!.ids.has(method.id)));
      return matters ? [{ call, callee, targets, cls }] : [];
    });
    if (called.length === 0) continue;
    const bindings = collectBindings(body);
    const scope = module.scope(body);
    const closed = new Set<string>();
    const drained = new Set<string>();
    const mayClose = options.explicitClose.test(text);
    const mayDrain = DRAIN_TEXT.test(text);
    for (const call of mayClose || mayDrain ? calls : []) {
      const close = mayClose ? StreamScope.closeCall(call, options.closeMethods) : null;
      if (close) closed.add(close.receiver.text);
      const read = mayDrain ? drainedBy(call) : null;
      if (read) drained.add(read);
    }
    for (const statement of withs) for (const { name } of withTargets(statement)) closed.add(name);
    const callerAsync = isAsync(caller);
    for (const { call, callee, targets, cls } of called) {
      const args = named(call.childForFieldName('arguments'));
      const passed = (arg: Node): { value: Node; response: string } | null => {
        const value = arg.type === 'keyword_argument' ? arg.childForFieldName('value') : arg;
        if (!value) return null;
        if (SIMPLE_REFERENCE.test(value.text) && closed.has(value.text) && scope.isStream(value)) return { value, response: value.text };
        // An iterator over a response the caller closes: `events(response.iter_lines())`, or `lines` bound to it.
        const bound = value.type === 'identifier' ? bindings.filter(({ target }) => target.text === value.text) : [];
        const inner = bound.length === 1 ? unwrap(bound[0].value) : unwrap(value);
        const method = inner.type === 'call' ? inner.childForFieldName('function') : null;
        const object = method?.type === 'attribute' ? method.childForFieldName('object') : null;
        if (object && DERIVED_METHOD.test(lastName(method!)) && SIMPLE_REFERENCE.test(object.text) && closed.has(object.text) && scope.isStream(object)) return { value, response: object.text };
        return null;
      };
      const by = `the caller \`${functionName(caller)}\` (line ${call.startPosition.row + 1})`;
      for (const target of targets) {
        if (target.id === caller.id || !usable!.ids.has(target.id)) continue;
        const positional = positionalParameters(target);
        const offset = callee.type === 'attribute' && isMethod(target) && /^(self|cls)$/.test(positional[0] ?? '') ? 1 : 0;
        args.forEach((arg, index) => {
          const given = passed(arg);
          if (!given) return;
          const keyword = arg.type === 'keyword_argument';
          const param = keyword ? arg.childForFieldName('name')?.text : positional[index + offset];
          if (!param || (keyword && !allParameters(target).has(param))) return;
          add(target, { stream: param, by, caller: { call, argument: given.value, response: given.response }, drains: drained.has(given.response) }, callerAsync);
        });
      }
      if (!cls) continue;
      // A class given the response: its methods read it by the attributes its constructor keeps it in.
      const init = module.methods(cls).find((fn) => fn.childForFieldName('name')?.text === '__init__');
      if (!init) continue;
      const positional = positionalParameters(init).slice(1);
      const kept = module.constructorAttributes(cls);
      args.forEach((arg, index) => {
        const given = passed(arg);
        if (!given || given.value.text !== given.response) return;
        const param = arg.type === 'keyword_argument' ? arg.childForFieldName('name')?.text : positional[index];
        for (const attribute of param ? (kept.get(param) ?? []) : []) {
          for (const method of module.methods(cls)) {
            if (method.id !== init.id && usable!.ids.has(method.id)) add(method, { stream: attribute, by, caller: { call, argument: given.value, response: given.response }, drains: drained.has(given.response) }, callerAsync);
          }
        }
      });
    }
  }
  return new Map([...closers].map(([id, list]) => [id, list.map((entry) => entry.closer)]));
}
