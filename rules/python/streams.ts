import { isResponseName } from '../contract/vocabulary.js';
import type { Node } from './parser.js';
import type { Binding } from './tree.js';

/** Close methods of a Python response stream (httpx `aclose`/`close`, aiohttp also `release`); `--close-method` replaces them. */
export const DEFAULT_PYTHON_CLOSE_METHODS: readonly string[] = ['aclose', 'close', 'release'];

/** Calls whose result (or `with … as` target) is a streamed response whatever their arguments (`client.sse(...)`: httpx2). */
const STREAM_SOURCES = new Set(['stream', 'sse', 'aconnect_sse', 'connect_sse', 'EventSource']);
/** Calls that stream only when asked to (`client.send(request, stream=True)`, `requests.get(url, stream=True)`). */
const STREAM_WHEN_ASKED = new Set(['send', 'request', 'get', 'post', 'put', 'patch', 'delete', 'urlopen']);
/** aiohttp: `async with session.get(url) as resp` is a streamed response. */
const AIOHTTP_REQUESTS = new Set(['request', 'get', 'post', 'put', 'patch', 'delete', 'ws_connect']);
/** What is derived from a response and carries its body. */
const DERIVED_MEMBERS = new Set(['response', 'content', 'stream', 'raw', 'body', 'aiter_sse', 'iter_sse']);
/** Methods that return an iterator over a body (`aiter_lines()`, `iter_sse()`, `iter_content()`). */
export const DERIVED_METHOD = /^(a?iter_(lines|bytes|text|raw|sse|chunked|any|chunks|content)|iter_content|iter_lines|iter_chunks|iter_any|iter_chunked|readline|readany)$/;

export function lastName(node: Node): string {
  if (node.type === 'attribute') return node.childForFieldName('attribute')?.text ?? '';
  if (node.type === 'identifier') return node.text;
  return '';
}

/** The expression inside `await` and parentheses. */
export function unwrap(node: Node): Node {
  let current = node;
  while (current.type === 'await' || current.type === 'parenthesized_expression') {
    const inner = current.namedChildren.find((child) => child !== null && child.type !== 'comment');
    if (!inner) break;
    current = inner;
  }
  return current;
}

function hasStreamTrue(call: Node): boolean {
  const args = call.childForFieldName('arguments');
  if (!args) return false;
  return args.namedChildren.some(
    (arg) => arg?.type === 'keyword_argument' && arg.childForFieldName('name')?.text === 'stream' && arg.childForFieldName('value')?.type === 'true',
  );
}

/**
 * The response streams of one function (or of a module's top level), by syntax: names bound from a
 * streaming call, names spelled like a response (`response`, `resp`, `res`), and what is derived
 * from them (`.response`, `aiter_lines()`, a call that takes one).
 */
/** What a module defines that opens a response: its own context managers over `client.stream(...)` (module.ts). */
export interface LocalSources {
  isSource(name: string): boolean;
}

export class StreamScope {
  private readonly names = new Set<string>();
  /** The response each bound name reads (`response` for `lines = response.iter_lines()`; a source call's target is its own). */
  private readonly roots = new Map<string, string>();

  /**
   * `bindings`: (target, value, in `async with`) pairs of the function's assignments and `with … as`;
   * `known`: names that are streams from outside (a response an enclosing function's `with` owns, `self.response`
   * that a constructor was given); `local`: the module's own stream sources.
   */
  constructor(
    bindings: readonly Binding[],
    known: Iterable<string> = [],
    private readonly local: LocalSources | null = null,
  ) {
    for (const name of known) this.names.add(name);
    // Bindings can build on each other (`response = await client.send(...)`, then `events = EventSource(response)`).
    for (let changed = true, rounds = 0; changed && rounds < 4; rounds++) {
      changed = false;
      for (const { target, value, asyncWith } of bindings) {
        if (target.type !== 'identifier' || this.names.has(target.text)) continue;
        if (this.isSource(value, asyncWith) || this.isStream(value)) {
          this.names.add(target.text);
          this.roots.set(target.text, this.isStream(value) ? (this.responseOf(value) ?? target.text) : target.text);
          changed = true;
        }
      }
    }
  }

  /** Whether a value is a call that starts a streamed response. */
  isSource(node: Node, asyncWith: boolean): boolean {
    const value = unwrap(node);
    if (value.type !== 'call') return false;
    const callee = value.childForFieldName('function');
    const name = callee ? lastName(callee) : '';
    if (STREAM_SOURCES.has(name) || (this.local?.isSource(name) ?? false)) return true;
    if (STREAM_WHEN_ASKED.has(name) && hasStreamTrue(value)) return true;
    return asyncWith && callee?.type === 'attribute' && AIOHTTP_REQUESTS.has(name) && /session/i.test(callee.childForFieldName('object')?.text ?? '');
  }

  /** Whether an expression is a response stream or derived from one. */
  isStream(node: Node): boolean {
    const value = unwrap(node);
    switch (value.type) {
      case 'identifier':
        return this.names.has(value.text) || isResponseName(value.text);
      case 'attribute': {
        const name = lastName(value);
        if (isResponseName(name) || this.names.has(value.text)) return true;
        const object = value.childForFieldName('object');
        return DERIVED_MEMBERS.has(name) && object !== null && this.isStream(object);
      }
      case 'call': {
        const callee = value.childForFieldName('function');
        if (!callee) return false;
        if (callee.type === 'attribute') {
          const object = callee.childForFieldName('object');
          if (object && DERIVED_METHOD.test(lastName(callee)) && this.isStream(object)) return true;
        }
        if (STREAM_SOURCES.has(lastName(callee)) || (this.local?.isSource(lastName(callee)) ?? false)) return true;
        // A parser or iterator built over a response (`EventSource(response)`, `iter_events(resp)`).
        const args = value.childForFieldName('arguments');
        return args?.namedChildren.some((arg) => arg !== null && arg.type !== 'keyword_argument' && this.isStream(arg)) ?? false;
      }
      default:
        return false;
    }
  }

  /**
   * The response a stream expression reads, as the name that holds it: `response` for `response.aiter_lines()`, for
   * `EventSource(response)` and for a name bound to either; `event_source` for `event_source.response` where
   * `event_source` is `aconnect_sse(...)`'s; null where no name holds it (a streaming call read in place).
   */
  responseOf(node: Node): string | null {
    const value = unwrap(node);
    switch (value.type) {
      case 'identifier':
        return this.roots.get(value.text) ?? value.text;
      case 'attribute': {
        const object = value.childForFieldName('object');
        if (!this.names.has(value.text) && DERIVED_MEMBERS.has(lastName(value)) && object !== null && this.isStream(object)) return this.responseOf(object);
        return this.roots.get(value.text) ?? value.text;
      }
      case 'call': {
        const callee = value.childForFieldName('function');
        const object = callee?.type === 'attribute' ? callee.childForFieldName('object') : null;
        if (callee && object && DERIVED_METHOD.test(lastName(callee)) && this.isStream(object)) return this.responseOf(object);
        const args = value.childForFieldName('arguments');
        const given = args?.namedChildren.find((arg) => arg !== null && arg.type !== 'keyword_argument' && this.isStream(arg));
        return given ? this.responseOf(given) : null;
      }
      default:
        return null;
    }
  }

  /** `responseOf` for a stream known by its text (what a `with`, a `finally` or a caller closes): `response`, `self._response`. */
  responseOfText(text: string): string {
    const dot = text.lastIndexOf('.');
    if (dot > 0 && DERIVED_MEMBERS.has(text.slice(dot + 1)) && !this.names.has(text)) {
      const owner = text.slice(0, dot);
      if (this.names.has(owner) || isResponseName(owner)) return this.responseOfText(owner);
    }
    return this.roots.get(text) ?? text;
  }

  /** The response an expression closes: `event_source.response` in `event_source.response.aclose()`. */
  static closeCall(call: Node, closeMethods: ReadonlySet<string>): { receiver: Node; method: string } | null {
    if (call.type !== 'call') return null;
    const callee = call.childForFieldName('function');
    if (callee?.type !== 'attribute') return null;
    const method = lastName(callee);
    const receiver = callee.childForFieldName('object');
    if (!receiver || !closeMethods.has(method)) return null;
    const args = call.childForFieldName('arguments');
    if (args && args.namedChildren.some((arg) => arg !== null && arg.type !== 'comment')) return null;
    return { receiver, method };
  }
}
