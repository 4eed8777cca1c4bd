import { casePatternMeaning, testMeaning, type TestMeaning } from './conditions.js';
import { Graph, type Block } from './cfg.js';
import { isExemptPath } from './exempt.js';
import { innermostLoop, jumpClose, type FinallyFrame, type Frame, type OuterCloser } from './frames.js';
import type { Node } from './parser.js';
import type { ModuleFacts } from './module.js';
import { SiteFinder } from './sites.js';
import { StreamScope, lastName, unwrap } from './streams.js';
import { untrustedFlags } from './terminal-flags.js';
import { collectBindings, forEachCall, isAsync, named, type Binding } from './tree.js';
import { words } from '../contract/vocabulary.js';

export interface BuildOptions {
  patterns: readonly RegExp[];
  closeMethods: ReadonlySet<string>;
  outer?: readonly OuterCloser[];
  /** Names bound to a flag another function of the module returns at a terminal event (see terminal-flags.ts). */
  flags?: ReadonlySet<string>;
  /** What the other functions and classes of the module say (generators that read or own a response, …). */
  module?: ModuleFacts;
}

const OPAQUE_STATEMENTS = new Set(['function_definition', 'class_definition', 'decorated_definition']);
/** Words that name an iterator over a body: `_iter_events`, `aiter_lines`, `iterator`, `chunks`, `event_stream`. */
const ITERATOR_WORDS = new Set(['iter', 'aiter', 'iterator', 'events', 'lines', 'chunks', 'sse', 'stream']);

function iteratorWords(name: string): boolean {
  return words(name).some((word) => ITERATOR_WORDS.has(word));
}

/** A test as written, on one line: `sse.data.startswith("[DONE]")`; a negated test names what it negates. */
function eventText(test: Node): string {
  const text = test.text.replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Builds the control-flow graph of one function body (or a module's top level) with its flow events. */
export class GraphBuilder {
  readonly graph = new Graph();
  private readonly frames: Frame[] = [];
  private readonly exit: Block;
  private readonly streams: StreamScope;
  private readonly sites: SiteFinder;
  private readonly meanings = new Map<number, TestMeaning>();
  private readonly bindings: readonly Binding[];
  private readonly module: ModuleFacts | null;
  /** `except StopIteration:` handlers entered at a terminal event another function raised it at (node ids). */
  private readonly terminalHandlers = new Set<number>();
  /** Inside such a handler, while its statements are built. */
  private inTerminalHandler = false;

  private readonly patterns: readonly RegExp[];
  private readonly flags: ReadonlySet<string>;
  /** Flags named for the terminal event that the function also sets off it (terminal-flags.ts). */
  private readonly untrusted: ReadonlySet<string>;

  constructor(
    private readonly body: Node,
    options: BuildOptions,
  ) {
    this.patterns = options.patterns;
    this.flags = options.flags ?? new Set();
    this.untrusted = untrustedFlags(body, this.patterns);
    const outer = options.outer ?? [];
    const bindings = collectBindings(body);
    this.bindings = bindings;
    this.module = options.module ?? null;
    this.streams = new StreamScope(bindings, outer.map((closer) => closer.stream), this.module);
    this.sites = new SiteFinder({ body, streams: this.streams, bindings, closeMethods: options.closeMethods, isExempt: (site) => this.isExempt(site) });
    for (const closer of outer) this.frames.push({ kind: 'outer', closer });
    this.exit = this.graph.block();
    const entry = this.graph.block();
    this.graph.roots.push(entry);
    this.statements(named(body), entry);
  }

  private meaning(test: Node): TestMeaning {
    let meaning = this.meanings.get(test.id);
    if (!meaning) {
      meaning = this.flagMeaning(test) ?? (test.type === 'case_pattern' || test.type === 'case_clause' ? casePatternMeaning(test, this.patterns) : testMeaning(test, this.patterns, this.untrusted));
      this.meanings.set(test.id, meaning);
    }
    return meaning;
  }

  /**
   * `if discard:` / `if not discard:` on a flag another function returned at a terminal event; `if reader.outcome is not
   * None:` / `if reader.outcome:` on an attribute the module sets only at a terminal event (module.ts).
   */
  private flagMeaning(test: Node): TestMeaning | null {
    let negated = test.type === 'not_operator';
    let operand = negated ? test.childForFieldName('argument') : test;
    if (operand?.type === 'comparison_operator') {
      const operands = named(operand);
      const operator = operand.children.filter((child) => child && !child.isNamed).map((child) => child.type).join(' ');
      if (operands.length !== 2 || operands[1].type !== 'none' || (operator !== 'is not' && operator !== 'is' && operator !== '!=' && operator !== '==')) return null;
      if (operator === 'is' || operator === '==') negated = !negated;
      operand = operands[0];
    }
    if (!operand) return null;
    const flag = operand.type === 'identifier' && this.flags.has(operand.text);
    // The attribute says the terminal event came while a loop here reads the body; outside one it tells of another reading.
    const attribute = !flag && operand.type === 'attribute' && this.insideLoop(test) && (this.module?.isTerminalAttribute(lastName(operand)) ?? false);
    if (!flag && !attribute) return null;
    return { terminal: negated ? null : operand.text, negTerminal: negated ? operand.text : null, exemptTrue: false, exemptFalse: false };
  }

  private insideLoop(node: Node): boolean {
    for (let parent = node.parent; parent && parent.id !== this.body.id; parent = parent.parent) if (parent.type === 'for_statement') return true;
    return false;
  }

  private statements(list: readonly Node[], start: Block | null): Block | null {
    let current = start;
    for (const statement of list) current = this.statement(statement, current ?? this.graph.block());
    return current;
  }

  /** The start of a branch; when its test recognises a terminal event, the event (named by the test as written) happens there. */
  private branch(recognised: string | null, test: Node | null): Block {
    const block = this.graph.block();
    if (recognised && test) block.events.push({ kind: 'terminal', label: eventText(test) });
    return block;
  }

  private statement(node: Node, current: Block): Block | null {
    switch (node.type) {
      case 'if_statement':
        return this.ifStatement(node, current);
      case 'for_statement':
        return this.forStatement(node, current);
      case 'while_statement':
        return this.whileStatement(node, current);
      case 'try_statement':
        return this.tryStatement(node, current);
      case 'with_statement':
        return this.withStatement(node, current);
      case 'match_statement':
        return this.matchStatement(node, current);
      case 'return_statement':
        this.expression(node, current);
        this.implicitClose(node, current, 'return');
        this.jump(current, this.exit, 0);
        return null;
      case 'raise_statement': {
        this.expression(node, current);
        const site = this.sites.stopIteration(node);
        if (site) current.events.push({ kind: 'close', site });
        return null;
      }
      case 'break_statement':
      case 'continue_statement': {
        const index = innermostLoop(this.frames);
        const loop = this.frames[index];
        if (loop?.kind !== 'loop') return null;
        if (node.type === 'break_statement') this.implicitClose(node, current, 'break');
        this.jump(current, node.type === 'break_statement' ? loop.breakTo : loop.continueTo, index + 1);
        return null;
      }
      default:
        if (OPAQUE_STATEMENTS.has(node.type)) return current;
        this.expression(node, current);
        return current;
    }
  }

  private expression(node: Node, current: Block): void {
    current.events.push(...this.sites.events(node));
  }

  /**
   * The close a `break`/`return` does where it leaves a loop over a response that something around it closes; in an
   * `except StopIteration:` entered at a terminal event, leaving a loop over the body that nothing closes leaves it open.
   */
  private implicitClose(node: Node, current: Block, jump: 'break' | 'return'): void {
    const closer = jumpClose(this.frames, jump);
    if (closer) {
      // A producer's response lives in the generator the loop leaves: no name here holds it.
      const response = closer.method === 'producer' ? null : this.streams.responseOfText(closer.stream);
      current.events.push({ kind: 'close', site: { kind: 'implicit', node, statement: node, ...closer, exempt: this.isExempt(node), response } });
    }
    else if (this.inTerminalHandler) {
      const index = jump === 'break' ? innermostLoop(this.frames) : this.frames.findIndex((frame) => frame.kind === 'loop' && frame.isFor);
      const loop = this.frames[index];
      const iterable = loop?.kind === 'loop' && loop.isFor ? loop.node.childForFieldName('right') : null;
      // A caller of the module that passes the lines in and drains or closes them afterwards speaks for them (outer-closers.ts).
      const handled = this.frames.some((frame) => frame.kind === 'outer' && frame.closer.stream === iterable?.text);
      if (iterable && !handled && this.iteratesBody(iterable, 0)) {
        const response = this.streams.isStream(iterable) ? this.streams.responseOf(iterable) : null;
        current.events.push({ kind: 'close', site: { kind: 'implicit', node, statement: node, stream: iterable.text, method: 'abandoned', by: 'nothing', exempt: this.isExempt(node), response } });
      }
    }
  }

  /** A jump to `target`, through the `finally` blocks it leaves (frames from `depth` up). */
  private jump(from: Block, target: Block, depth: number): void {
    let source: Block | null = from;
    let hop: FinallyFrame | null = null;
    for (let i = this.frames.length - 1; i >= depth; i--) {
      const frame = this.frames[i];
      if (frame.kind !== 'finally') continue;
      if (hop) {
        if (!hop.exits.includes(frame.entry)) hop.exits.push(frame.entry);
      } else this.graph.edge(source, frame.entry);
      source = null;
      hop = frame;
    }
    if (hop) {
      if (!hop.exits.includes(target)) hop.exits.push(target);
    } else this.graph.edge(from, target);
  }

  private ifStatement(node: Node, current: Block): Block | null {
    const after = this.graph.block();
    let test: Node | null = node.childForFieldName('condition');
    let consequence = node.childForFieldName('consequence');
    let decide: Block = current;
    if (test) this.expression(test, current);
    const alternatives = node.childrenForFieldName('alternative').filter((child): child is Node => child !== null);
    for (let i = 0; ; i++) {
      const meaning = test ? this.meaning(test) : null;
      const yes = this.branch(meaning?.terminal ?? null, test);
      this.graph.edge(decide, yes);
      this.graph.edge(this.statements(named(consequence), yes), after);
      const no = this.branch(meaning?.negTerminal ?? null, test);
      this.graph.edge(decide, no);
      const next = alternatives[i];
      if (!next) {
        this.graph.edge(no, after);
        break;
      }
      if (next.type === 'else_clause') {
        this.graph.edge(this.statements(named(next.childForFieldName('body')), no), after);
        break;
      }
      test = next.childForFieldName('condition');
      consequence = next.childForFieldName('consequence');
      if (test) this.expression(test, no);
      decide = no;
    }
    return after;
  }

  private forStatement(node: Node, current: Block): Block {
    const iterable = node.childForFieldName('right');
    if (iterable) this.expression(iterable, current);
    const head = this.graph.block();
    const after = this.graph.block();
    this.graph.edge(current, head);
    const readsStream = iterable !== null && this.streams.isStream(iterable);
    const readsBody = readsStream || (iterable !== null && this.iteratesBody(iterable, 0));
    this.frames.push({ kind: 'loop', node, isFor: true, readsStream, breakTo: after, continueTo: head, producer: iterable ? this.producer(iterable) : undefined });
    const bodyStart = this.graph.block();
    this.graph.edge(head, bodyStart);
    const end = this.statements(named(node.childForFieldName('body')), bodyStart);
    this.frames.pop();
    this.graph.edge(end, head);
    // The loop ran out: the iterator reached its end, EOF for a loop over the stream or an iterator derived from it
    // (a loop over a list of handlers running out says nothing about the body).
    const exhausted = this.graph.block();
    if (readsBody) exhausted.events.push({ kind: 'eof', response: readsStream ? this.streams.responseOf(iterable) : null });
    this.graph.edge(head, exhausted);
    const orElse = node.childForFieldName('alternative');
    this.graph.edge(orElse ? this.statements(named(orElse.childForFieldName('body')), exhausted) : exhausted, after);
    return after;
  }

  /**
   * Whether a loop's iterable may be the body read on (its running out is EOF): a response stream or what derives from
   * it, a generator of the module that reads one, or an iterator by its name (`self._iter_events()`, `lines`,
   * `iterator = aiter(source)`); not a list of handlers, a `range()`, the lines of one chunk.
   */
  private iteratesBody(iterable: Node, depth: number): boolean {
    if (this.streams.isStream(iterable)) return true;
    const value = unwrap(iterable);
    if (value.type === 'call') {
      const callee = value.childForFieldName('function');
      const name = callee ? lastName(callee) : '';
      if (iteratorWords(name) || (this.module?.isReader(name) ?? false) || this.producer(value) !== undefined) return true;
      // `aiter(source)`, `iter(lines)`: the iterator of what it is given.
      const args = named(value.childForFieldName('arguments'));
      return (name === 'iter' || name === 'aiter') && args.length === 1 && depth < 4 && this.iteratesBody(args[0], depth + 1);
    }
    if (value.type !== 'identifier' && value.type !== 'attribute') return false;
    if (iteratorWords(lastName(value))) return true;
    if (value.type !== 'identifier' || depth >= 4) return false;
    return this.bindings.some(({ target, value: bound }) => target.type === 'identifier' && target.text === value.text && this.iteratesBody(bound, depth + 1));
  }

  /** A loop over a direct call of a generator of the module that owns a response (module.ts `ownerOf`). */
  private producer(iterable: Node): { stream: string; by: string } | undefined {
    const value = unwrap(iterable);
    const callee = value.type === 'call' ? value.childForFieldName('function') : null;
    if (!callee || !this.module) return undefined;
    const name = lastName(callee);
    const owned = this.module.ownerOf(name);
    return owned ? { stream: owned.stream, by: `the \`${owned.method}\` of \`${name}\`, which the loop leaves unfinished,` } : undefined;
  }

  private whileStatement(node: Node, current: Block): Block {
    const test = node.childForFieldName('condition');
    const head = this.graph.block();
    const after = this.graph.block();
    this.graph.edge(current, head);
    if (test) this.expression(test, head);
    const meaning = test ? this.meaning(test) : null;
    const infinite = test?.type === 'true' || (test?.type === 'integer' && test.text !== '0');
    const yes = this.branch(meaning?.terminal ?? null, test);
    this.graph.edge(head, yes);
    this.whileBody(node, yes, head, after);
    if (!infinite) {
      const no = this.branch(meaning?.negTerminal ?? null, test);
      this.graph.edge(head, no);
      const orElse = node.childForFieldName('alternative');
      this.graph.edge(orElse ? this.statements(named(orElse.childForFieldName('body')), no) : no, after);
    }
    return after;
  }

  private whileBody(node: Node, start: Block, head: Block, after: Block): void {
    this.frames.push({ kind: 'loop', node, isFor: false, readsStream: false, breakTo: after, continueTo: head });
    const end = this.statements(named(node.childForFieldName('body')), start);
    this.frames.pop();
    this.graph.edge(end, head);
  }

  private tryStatement(node: Node, current: Block): Block | null {
    const children = named(node);
    const body = node.childForFieldName('body');
    const handlers = children.filter((child) => child.type === 'except_clause' || child.type === 'except_group_clause');
    const orElse = children.find((child) => child.type === 'else_clause');
    const finallyClause = children.find((child) => child.type === 'finally_clause');
    const after = this.graph.block();
    let frame: FinallyFrame | null = null;
    if (finallyClause) {
      frame = { kind: 'finally', entry: this.graph.block(), exits: [], closes: this.sites.finallyCloses(finallyClause) };
      this.frames.push(frame);
    }
    const normalEnd = this.graph.block();
    const bodyEnd = this.statements(named(body), current);
    this.graph.edge(orElse ? this.statements(named(orElse.childForFieldName('body')), bodyEnd) : bodyEnd, normalEnd);
    for (const handler of handlers) {
      // An except block is an error path: it starts with nothing pending (closes in it are exempt anyway), but for an
      // `except StopIteration:` whose `try` calls a function of the module that raises it at a terminal event.
      const start = this.graph.block();
      this.graph.roots.push(start);
      const terminal = body ? this.stopAtTerminal(handler, body) : null;
      if (terminal) {
        start.events.push({ kind: 'terminal', label: eventText(terminal) });
        this.terminalHandlers.add(handler.id);
      }
      const block = named(handler).find((child) => child.type === 'block');
      const outside = this.inTerminalHandler;
      this.inTerminalHandler = terminal !== null;
      this.graph.edge(this.statements(named(block ?? null), start), normalEnd);
      this.inTerminalHandler = outside;
    }
    if (!frame || !finallyClause) {
      this.graph.edge(normalEnd, after);
      return after;
    }
    this.frames.pop();
    this.graph.edge(normalEnd, frame.entry);
    const finallyBody = named(finallyClause).find((child) => child.type === 'block') ?? null;
    const finallyEnd = this.statements(named(finallyBody), frame.entry);
    this.graph.edge(finallyEnd, after);
    // Jumps that went through this finally go on to their own targets (or to the next finally out).
    for (const exit of frame.exits) this.graph.edge(finallyEnd, exit);
    return after;
  }

  /**
   * The terminal test of a function of the module that raises StopIteration at it, when `handler` catches only
   * StopIteration and its `try` body calls that function and reads no iterator by hand (`next(lines)` raises it at EOF).
   */
  private stopAtTerminal(handler: Node, body: Node): Node | null {
    if (!this.module || handler.type !== 'except_clause') return null;
    const caught = named(handler)[0];
    if (!caught || caught.type === 'block' || !/\bStop(?:Async)?Iteration\b/.test(caught.text) || /\b(?:Base)?Exception\b/.test(caught.text)) return null;
    let test: Node | null = null;
    let readsByHand = false;
    for (const statement of named(body)) {
      forEachCall(statement, (call) => {
        const callee = call.childForFieldName('function');
        const name = callee ? lastName(callee) : '';
        if (/^(?:a?next|__a?next__)$/.test(name)) readsByHand = true;
        else test ??= this.module!.stopAtTerminal(name);
      });
    }
    return readsByHand ? null : test;
  }

  private withStatement(node: Node, current: Block): Block | null {
    let owns: string | null = null;
    const clause = named(node).find((child) => child.type === 'with_clause');
    for (const item of named(clause ?? null)) {
      const value = item.childForFieldName('value');
      if (!value) continue;
      this.expression(value, current);
      if (value.type === 'as_pattern') {
        const target = named(value.childForFieldName('alias'))[0];
        if (owns === null && target?.type === 'identifier' && this.streams.isStream(target)) owns = target.text;
      }
    }
    this.frames.push({ kind: 'with', owns, isAsync: isAsync(node) });
    const end = this.statements(named(node.childForFieldName('body')), current);
    this.frames.pop();
    return end;
  }

  private matchStatement(node: Node, current: Block): Block {
    const subject = node.childForFieldName('subject');
    if (subject) this.expression(subject, current);
    const after = this.graph.block();
    const body = node.childForFieldName('body');
    let exhaustive = false;
    for (const clause of body ? body.childrenForFieldName('alternative') : []) {
      if (!clause) continue;
      const pattern = named(clause).find((child) => child.type === 'case_pattern');
      const meaning = pattern ? this.meaning(pattern) : null;
      const start = this.branch(meaning?.terminal ?? null, pattern ?? null);
      this.graph.edge(current, start);
      this.graph.edge(this.statements(named(clause.childForFieldName('consequence')), start), after);
      if (pattern && /^_$/.test(pattern.text) && !clause.childForFieldName('guard')) exhaustive = true;
    }
    if (!exhaustive) this.graph.edge(current, after);
    return after;
  }

  private isExempt(site: Node): boolean {
    return isExemptPath(site, this.body, (test) => this.meaning(test), this.terminalHandlers);
  }
}
