import { isResponseName } from '../contract/vocabulary.js';
import type { Node } from './parser.js';
import { StreamScope, lastName, unwrap, type LocalSources } from './streams.js';
import { isFalsy, terminalTestOf } from './terminal-flags.js';
import { collectBindings, isAsync, isStopIteration, named, ownDescendants } from './tree.js';

// What the functions and classes of one module say about each other, asked by name and worked out on first use
// (most files never ask): which generators read or own a response, which functions raise StopIteration at a
// terminal event, which attributes are set only at one, which context managers open a response.

const NESTED_SCOPES = new Set(['function_definition', 'class_definition', 'lambda']);

/** A generator of the module whose `with` (or `finally`) closes a response when the generator is closed. */
export interface OwnedBy {
  /** The response as the generator names it. */
  stream: string;
  /** `async with`, `with` or `finally`. */
  method: string;
}

function hasYield(body: Node): boolean {
  return /\byield\b/.test(body.text) && ownDescendants(body, ['yield']).length > 0;
}

function decoratorNames(fn: Node): string[] {
  const parent = fn.parent;
  if (parent?.type !== 'decorated_definition') return [];
  return named(parent)
    .filter((child) => child.type === 'decorator')
    .map((decorator) => {
      const expression = named(decorator)[0];
      const target = expression?.type === 'call' ? expression.childForFieldName('function') : expression;
      return target ? lastName(target) : '';
    });
}

/** The class a function is a method of, or null. */
export function classOf(fn: Node): Node | null {
  let parent = fn.parent;
  if (parent?.type === 'decorated_definition') parent = parent.parent;
  return parent?.type === 'block' && parent.parent?.type === 'class_definition' ? parent.parent : null;
}

export class ModuleFacts implements LocalSources {
  private readonly byName = new Map<string, Node[]>();
  private readonly classes = new Map<string, Node>();
  private readonly memo = new Map<string, unknown>();
  private readonly busy = new Set<string>();

  constructor(
    readonly functions: readonly Node[],
    classes: readonly Node[],
    private readonly patterns: readonly RegExp[],
    private readonly closeMethods: ReadonlySet<string>,
  ) {
    for (const fn of functions) {
      const name = fn.childForFieldName('name')?.text;
      if (name) this.byName.set(name, [...(this.byName.get(name) ?? []), fn]);
    }
    for (const cls of classes) {
      const name = cls.childForFieldName('name')?.text;
      if (name && !this.classes.has(name)) this.classes.set(name, cls);
    }
  }

  /** Functions of the module with this name (methods included). */
  named(name: string): readonly Node[] {
    return this.byName.get(name) ?? [];
  }

  /** A class of the module with this name, or undefined. */
  classNamed(name: string): Node | undefined {
    return this.classes.get(name);
  }

  /** The methods of a class (its own, not those of nested classes). */
  methods(cls: Node): Node[] {
    return named(cls.childForFieldName('body')).flatMap((statement) => {
      const definition = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
      return definition?.type === 'function_definition' ? [definition] : [];
    });
  }

  private once<T>(key: string, compute: () => T, fallback: T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    if (this.busy.has(key)) return fallback;
    this.busy.add(key);
    try {
      const value = compute();
      this.memo.set(key, value);
      return value;
    } finally {
      this.busy.delete(key);
    }
  }

  /** The response streams of a function body, with the module's own sources. */
  scope(body: Node, known: Iterable<string> = []): StreamScope {
    return new StreamScope(collectBindings(body), known, this);
  }

  /**
   * A context manager of the module (`@contextmanager`, `@asynccontextmanager`) that yields inside a `with` owning a
   * response (`async with client.stream(...) as response: yield EventSource(response)`): `async with` over a call of
   * it gives a response stream, as `aconnect_sse(...)` does.
   */
  isSource(name: string): boolean {
    return this.sourceYields(name) !== null;
  }

  /** What such a context manager yields: the response itself, or a reader built over it (`EventSource(response)`); null for no such function. */
  sourceYields(name: string): 'response' | 'reader' | null {
    return this.once(
      `source:${name}`,
      () => {
        for (const fn of this.named(name)) {
          if (!decoratorNames(fn).some((decorator) => /^(?:async)?contextmanager$/.test(decorator))) continue;
          const body = fn.childForFieldName('body');
          if (!body || !hasYield(body)) continue;
          const owned = this.yieldInOwner(body);
          if (owned?.method !== 'finally' && owned?.yielded) return owned.yielded === owned.stream ? 'response' : 'reader';
        }
        return null;
      },
      null,
    );
  }

  /**
   * A generator of the module that reads a response in a `for` loop (`def _iter_events(self): for line in
   * self.response.iter_lines(): yield ...`): a loop over a call of it reads the body.
   */
  isReader(name: string): boolean {
    return this.once(
      `reader:${name}`,
      () =>
        this.named(name).some((fn) => {
          const body = fn.childForFieldName('body');
          if (!body || !hasYield(body)) return false;
          const scope = this.scope(body);
          return ownDescendants(body, ['for_statement']).some((loop) => {
            const iterable = loop.childForFieldName('right');
            return iterable !== null && scope.isStream(iterable);
          });
        }),
      false,
    );
  }

  /**
   * A generator of the module that owns the response it reads (`async with client.stream(...) as response:` around
   * its `yield`, or a `finally` that closes it): when a loop over a call of it is left, the generator is closed
   * unfinished, and its `with` closes the response.
   */
  ownerOf(name: string): OwnedBy | null {
    return this.once(
      `owner:${name}`,
      () => {
        const fns = this.named(name);
        if (fns.length !== 1) return null;
        const body = fns[0].childForFieldName('body');
        if (!body || !hasYield(body) || decoratorNames(fns[0]).some((decorator) => /contextmanager$/.test(decorator))) return null;
        const owned = this.yieldInOwner(body);
        return owned ? { stream: owned.stream, method: owned.method } : null;
      },
      null,
    );
  }

  /** The first `yield` of a body that sits inside a `with` owning a response (or a `try` whose `finally` closes one). */
  private yieldInOwner(body: Node): { stream: string; method: string; yielded: string | null } | null {
    const scope = this.scope(body);
    let found: { stream: string; method: string; yielded: string | null } | null = null;
    for (const node of ownDescendants(body, ['yield'])) {
      if (found) break;
      for (let parent = node.parent; parent && parent.id !== body.id; parent = parent.parent) {
        if (parent.type === 'with_statement') {
          const clause = named(parent).find((child) => child.type === 'with_clause');
          for (const item of named(clause ?? null)) {
            const value = item.childForFieldName('value');
            if (value?.type !== 'as_pattern') continue;
            const target = named(value.childForFieldName('alias'))[0];
            const source = named(value)[0];
            if (target?.type !== 'identifier' || !source || !(scope.isSource(source, isAsync(parent)) || isResponseName(target.text))) continue;
            const yielded = named(node)[0];
            found = { stream: target.text, method: isAsync(parent) ? 'async with' : 'with', yielded: yielded ? yieldedStream(yielded, target.text) : null };
            break;
          }
          if (found) break;
        } else if (parent.type === 'try_statement') {
          const clause = named(parent).find((child) => child.type === 'finally_clause');
          const closed = clause ? closedIn(clause, scope, this.closeMethods) : null;
          if (closed) {
            found = { stream: closed, method: 'finally', yielded: null };
            break;
          }
        }
      }
    }
    return found;
  }

  /**
   * A function of the module that raises StopIteration at a terminal event (`if line.strip() == "data: [DONE]": raise
   * StopIteration(...)`): the test as written, or null. A loop whose `except StopIteration:` catches it left the body
   * at that event.
   */
  stopAtTerminal(name: string): Node | null {
    return this.once(
      `stop:${name}`,
      () => {
        for (const fn of this.named(name)) {
          const body = fn.childForFieldName('body');
          if (!body || !/\bStop(?:Async)?Iteration\b/.test(body.text)) continue;
          for (const raise of ownDescendants(body, ['raise_statement'])) {
            const test = isStopIteration(raise) ? terminalTestOf(raise, body, this.patterns) : null;
            if (test) return test;
          }
        }
        return null;
      },
      null,
    );
  }

  /**
   * An attribute the module sets only where a terminal event was recognised (`self.outcome = Outcome(...)` under
   * `if delta.get("stop_reason") == "refusal":`; `None` or another falsy value elsewhere): testing it set
   * (`reader.outcome is not None`) is testing that the terminal event came.
   */
  isTerminalAttribute(name: string): boolean {
    return this.once(
      `attribute:${name}`,
      () => {
        const assigned = new RegExp(`\\.${name}\\s*(?::[^=\\n]*)?=(?!=)`);
        let terminal = false;
        for (const fn of this.functions) {
          const body = fn.childForFieldName('body');
          if (!body || !assigned.test(body.text)) continue;
          for (const { target, value } of collectBindings(body)) {
            if (target.type !== 'attribute' || lastName(target) !== name || isFalsy(unwrap(value))) continue;
            if (terminalTestOf(target, body, this.patterns) === null) return false;
            terminal = true;
          }
        }
        return terminal;
      },
      false,
    );
  }

  /**
   * The attributes a class's constructor keeps its parameters in (`self.response = response`): per positional
   * parameter name (after `self`), the attribute names.
   */
  constructorAttributes(cls: Node): Map<string, string[]> {
    const kept = new Map<string, string[]>();
    const init = this.methods(cls).find((fn) => fn.childForFieldName('name')?.text === '__init__');
    const body = init?.childForFieldName('body');
    if (!body) return kept;
    for (const { target, value } of collectBindings(body)) {
      const object = target.type === 'attribute' ? target.childForFieldName('object') : null;
      const source = unwrap(value);
      if (object?.text !== 'self' || source.type !== 'identifier') continue;
      kept.set(source.text, [...(kept.get(source.text) ?? []), target.text]);
    }
    return kept;
  }
}

/** What a context manager yields, as far as the response goes: the response's name, another name, or null. */
function yieldedStream(yielded: Node, stream: string): string | null {
  const value = unwrap(yielded);
  if (value.type === 'identifier') return value.text;
  if (value.type === 'call') return named(value.childForFieldName('arguments')).some((arg) => arg.text === stream) ? `${lastName(value.childForFieldName('function')!)}(${stream})` : null;
  return null;
}

function closedIn(clause: Node, scope: StreamScope, closeMethods: ReadonlySet<string>): string | null {
  let closed: string | null = null;
  const visit = (node: Node): void => {
    if (closed) return;
    if (node.type === 'call') {
      const close = StreamScope.closeCall(node, closeMethods);
      if (close && scope.isStream(close.receiver)) closed = close.receiver.text;
    }
    for (const child of named(node)) if (!NESTED_SCOPES.has(child.type)) visit(child);
  };
  visit(clause);
  return closed;
}
