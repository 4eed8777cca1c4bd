import type { CloseSite, FlowEvent } from './cfg.js';
import type { Node } from './parser.js';
import { StreamScope, lastName, unwrap } from './streams.js';
import { forEachCall, isStopIteration, named, statementOf, type Binding } from './tree.js';
import { words } from '../contract/vocabulary.js';

/** A function named with one of these words, given the stream, reads it to its end (`_drain_response(response, events)`). */
const DRAIN_WORDS = new Set(['drain', 'adrain']);
/** Methods that read the rest of a body: after them the stream is at EOF. */
const READ_TO_END = new Set(['read', 'aread']);

export interface SiteFinderOptions {
  /** The function body (or module) the sites are in. */
  body: Node;
  streams: StreamScope;
  bindings: readonly Binding[];
  closeMethods: ReadonlySet<string>;
  /** Whether a site lies on an exempt path (exempt.ts, with the graph's reading of tests). */
  isExempt: (site: Node) => boolean;
}

/** Finds what a function's statements do to its response streams: closes, reads to EOF, a `raise StopIteration` that abandons one. */
export class SiteFinder {
  /** Text that can hold a close, a read to the end or a drain call. */
  private readonly callText: RegExp;

  constructor(private readonly options: SiteFinderOptions) {
    const closes = [...options.closeMethods].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.callText = new RegExp(`(?:(?<!\\p{ID_Continue})(?:${[...closes, ...READ_TO_END].join('|')})[\\s\\\\]*\\(|drain)`, 'iu');
  }

  /** Explicit closes of response streams in an expression or simple statement, and reads to EOF (a drain, `read()`), in source order. */
  events(node: Node): FlowEvent[] {
    const events: FlowEvent[] = [];
    // Most statements call nothing of the kind: their text says so without bringing their nodes into JavaScript.
    if (!this.callText.test(node.text)) return events;
    forEachCall(node, (call) => {
      const read = this.readToEnd(call);
      if (read) {
        events.push({ kind: 'eof', response: this.options.streams.responseOf(read) });
        return;
      }
      const close = StreamScope.closeCall(call, this.options.closeMethods);
      if (!close || !this.options.streams.isStream(close.receiver)) return;
      const site: CloseSite = {
        kind: 'explicit',
        node: call,
        statement: statementOf(call),
        stream: close.receiver.text,
        method: close.method,
        exempt: this.options.isExempt(call),
        response: this.options.streams.responseOf(close.receiver),
      };
      events.push({ kind: 'close', site });
    });
    return events;
  }

  /**
   * `raise StopIteration` after a terminal event, where it ends the reading (in `__next__`, or in a `try`
   * whose `except StopIteration` handler leaves the loop): the body is left neither drained nor closed, and
   * its connection stays checked out until the client closes. Reported when the function holds an
   * iterator over a response (`lines = response.iter_lines()`).
   */
  stopIteration(raise: Node): CloseSite | null {
    if (!isStopIteration(raise)) return null;
    const { body } = this.options;
    const fn = body.parent?.type === 'function_definition' ? (body.parent.childForFieldName('name')?.text ?? '') : '';
    let caught = false;
    for (let child = raise, parent = raise.parent; parent && parent.id !== body.id; child = parent, parent = parent.parent) {
      if (parent.type === 'try_statement' && parent.childForFieldName('body')?.id === child.id) {
        caught ||= named(parent).some((clause) => clause.type === 'except_clause' && /\bStop(?:Async)?Iteration\b/.test(named(clause)[0]?.text ?? ''));
      }
    }
    if (!caught && fn !== '__next__' && fn !== '__anext__') return null;
    const response = this.heldResponse();
    if (!response) return null;
    return { kind: 'implicit', node: raise, statement: raise, stream: response, method: 'abandoned', by: 'nothing', exempt: this.options.isExempt(raise), response: this.options.streams.responseOfText(response) };
  }

  /** The response a `finally` closes (`response.close()`, `await response.aclose()`), if any. */
  finallyCloses(clause: Node): string | null {
    let found: string | null = null;
    forEachCall(clause, (call) => {
      const close = StreamScope.closeCall(call, this.options.closeMethods);
      if (found === null && close && this.options.streams.isStream(close.receiver)) found = close.receiver.text;
    });
    return found;
  }

  /** The response an iterator held in a name reads (`response` for `lines = response.iter_lines()`). */
  private heldResponse(): string | null {
    for (const { target, value } of this.options.bindings) {
      const call = unwrap(value);
      const callee = call.type === 'call' ? call.childForFieldName('function') : null;
      const receiver = callee?.type === 'attribute' ? callee.childForFieldName('object') : null;
      if (target.type !== 'identifier' || !receiver || !/^a?iter_/.test(lastName(callee!))) continue;
      if (/^[A-Za-z_][\w.]*$/.test(receiver.text) && this.options.streams.isStream(receiver)) return receiver.text;
    }
    return null;
  }

  /**
   * The stream a call reads to its end: `response` of `await response.aread()` or `response.read()`, or the stream a
   * drain function is given (`_drain_response(response, events)`).
   */
  private readToEnd(call: Node): Node | null {
    const callee = call.childForFieldName('function');
    if (!callee) return null;
    const args = named(call.childForFieldName('arguments'));
    const name = lastName(callee);
    if (READ_TO_END.has(name) && args.length === 0 && callee.type === 'attribute') {
      const receiver = callee.childForFieldName('object');
      return receiver !== null && this.options.streams.isStream(receiver) ? receiver : null;
    }
    if (!words(name).some((word) => DRAIN_WORDS.has(word))) return null;
    return args.find((arg) => arg.type !== 'keyword_argument' && this.options.streams.isStream(arg)) ?? null;
  }
}
