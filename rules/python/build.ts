import { casePatternMeaning, testMeaning, type TestMeaning } from './conditions.js';
import { Graph, type Block, type CloseSite } from './cfg.js';
import type { Node } from './parser.js';
import { StreamScope, lastName, unwrap } from './streams.js';
import { words } from '../contract/vocabulary.js';

/** One enclosing construct, innermost last, while a function's graph is built. */
type Frame =
  | { kind: 'loop'; node: Node; isFor: boolean; readsStream: boolean; breakTo: Block; continueTo: Block }
  | { kind: 'finally'; entry: Block; exits: Block[]; closes: string | null }
  | { kind: 'with'; owns: string | null; isAsync: boolean }
  /** A close from outside the function, around all of it (see OuterCloser). */
  | { kind: 'outer'; closer: OuterCloser };

/**
 * What closes a response when a function stops reading it, from outside the function: the `with` of
 * an enclosing function that owns the response a nested generator reads (`with client.stream(...) as
 * response:` around `def events(): ... return`), or a caller that closes the response it passed in
 * once the call is over.
 */
export interface OuterCloser {
  /** The name the function reads the response by (a closure variable or a parameter). */
  stream: string;
  /** How the close is named in the report: "the `with` of `generate`", "the caller `ask` (line 12)". */
  by: string;
}

export interface BuildOptions {
  patterns: readonly RegExp[];
  closeMethods: ReadonlySet<string>;
  outer?: readonly OuterCloser[];
  /** Names bound to a flag another function of the module returns at a terminal event (see terminal-flags.ts). */
  flags?: ReadonlySet<string>;
}

/** A function named with one of these words, given the stream, reads it to its end (`_drain_response(response, events)`). */
const DRAIN_WORDS = new Set(['drain', 'adrain']);
/** Methods that read the rest of a body: after them the stream is at EOF. */
const READ_TO_END = new Set(['read', 'aread']);

const OPAQUE_STATEMENTS = new Set(['function_definition', 'class_definition', 'decorated_definition']);
const NESTED_SCOPES = new Set(['function_definition', 'class_definition', 'decorated_definition', 'lambda']);

/** A test as written, on one line: `sse.data.startswith("[DONE]")`; a negated test names what it negates. */
function eventText(test: Node): string {
  const text = test.text.replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function named(node: Node | null): Node[] {
  return node ? node.namedChildren.filter((child): child is Node => child !== null && child.type !== 'comment') : [];
}

/** `raise StopIteration` (or `StopAsyncIteration`, called or not): the end of an iteration, not an error. */
function isStopIteration(raise: Node): boolean {
  const raised = named(raise)[0];
  const name = raised?.type === 'call' ? raised.childForFieldName('function')?.text : raised?.text;
  return name === 'StopIteration' || name === 'StopAsyncIteration';
}

export function isAsync(node: Node): boolean {
  return node.firstChild?.type === 'async';
}

/** Calls in an expression or simple statement, in source order, not looking into nested functions or lambdas. */
function forEachCall(node: Node, visit: (call: Node) => void): void {
  if (NESTED_SCOPES.has(node.type)) return;
  for (const child of named(node)) forEachCall(child, visit);
  if (node.type === 'call') visit(node);
}

/** Assignments and `with … as` bindings of a function body (not of functions nested in it). */
export function collectBindings(body: Node): { target: Node; value: Node; asyncWith: boolean }[] {
  const bindings: { target: Node; value: Node; asyncWith: boolean }[] = [];
  const visit = (node: Node, asyncWith: boolean): void => {
    if (NESTED_SCOPES.has(node.type)) return;
    if (node.type === 'assignment' || node.type === 'named_expression') {
      const target = node.childForFieldName(node.type === 'assignment' ? 'left' : 'name');
      const value = node.childForFieldName(node.type === 'assignment' ? 'right' : 'value');
      if (target && value) bindings.push({ target, value, asyncWith: false });
    } else if (node.type === 'as_pattern' && node.parent?.type === 'with_item') {
      const value = named(node)[0];
      const target = named(node.childForFieldName('alias'))[0];
      if (value && target) bindings.push({ target, value, asyncWith });
    }
    const withAsync = node.type === 'with_statement' ? isAsync(node) : asyncWith;
    for (const child of named(node)) visit(child, withAsync);
  };
  visit(body, false);
  return bindings;
}

/** Builds the control-flow graph of one function body (or a module's top level) with its flow events. */
export class GraphBuilder {
  readonly graph = new Graph();
  private readonly frames: Frame[] = [];
  private readonly exit: Block;
  private readonly streams: StreamScope;
  private readonly bindings: { target: Node; value: Node; asyncWith: boolean }[];
  private readonly meanings = new Map<number, TestMeaning>();

  private readonly patterns: readonly RegExp[];
  private readonly closeMethods: ReadonlySet<string>;
  private readonly flags: ReadonlySet<string>;

  constructor(
    private readonly body: Node,
    options: BuildOptions,
  ) {
    this.patterns = options.patterns;
    this.closeMethods = options.closeMethods;
    this.flags = options.flags ?? new Set();
    const outer = options.outer ?? [];
    this.bindings = collectBindings(body);
    this.streams = new StreamScope(this.bindings, outer.map((closer) => closer.stream));
    for (const closer of outer) this.frames.push({ kind: 'outer', closer });
    this.exit = this.graph.block();
    const entry = this.graph.block();
    this.graph.roots.push(entry);
    this.statements(named(body), entry);
  }

  private meaning(test: Node): TestMeaning {
    let meaning = this.meanings.get(test.id);
    if (!meaning) {
      meaning = this.flagMeaning(test) ?? (test.type === 'case_pattern' || test.type === 'case_clause' ? casePatternMeaning(test, this.patterns) : testMeaning(test, this.patterns));
      this.meanings.set(test.id, meaning);
    }
    return meaning;
  }

  /** `if discard:` / `if not discard:` on a flag another function returned at a terminal event. */
  private flagMeaning(test: Node): TestMeaning | null {
    const negated = test.type === 'not_operator';
    const operand = negated ? test.childForFieldName('argument') : test;
    if (operand?.type !== 'identifier' || !this.flags.has(operand.text)) return null;
    return { terminal: negated ? null : operand.text, negTerminal: negated ? operand.text : null, exemptTrue: false, exemptFalse: false };
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
      case 'raise_statement':
        this.expression(node, current);
        this.stopIteration(node, current);
        return null;
      case 'break_statement': {
        const loop = this.innermostLoop();
        if (loop === -1) return null;
        this.implicitClose(node, current, 'break');
        this.jump(current, (this.frames[loop] as Extract<Frame, { kind: 'loop' }>).breakTo, loop + 1);
        return null;
      }
      case 'continue_statement': {
        const loop = this.innermostLoop();
        if (loop === -1) return null;
        this.jump(current, (this.frames[loop] as Extract<Frame, { kind: 'loop' }>).continueTo, loop + 1);
        return null;
      }
      default:
        if (OPAQUE_STATEMENTS.has(node.type)) return current;
        this.expression(node, current);
        return current;
    }
  }

  /** Explicit closes of response streams in an expression or simple statement, and reads to EOF (a drain, `read()`). */
  private expression(node: Node, current: Block): void {
    forEachCall(node, (call) => {
      if (this.readsToEnd(call)) {
        current.events.push({ kind: 'eof' });
        return;
      }
      const close = StreamScope.closeCall(call, this.closeMethods);
      if (!close || !this.streams.isStream(close.receiver)) return;
      const site: CloseSite = {
        kind: 'explicit',
        node: call,
        statement: this.statementOf(call),
        stream: close.receiver.text,
        method: close.method,
        exempt: this.isExempt(call),
      };
      current.events.push({ kind: 'close', site });
    });
  }

  /**
   * `raise StopIteration` after a terminal event, where it ends the reading (in `__next__`, or in a `try`
   * whose `except StopIteration` handler leaves the loop): the body is left neither drained nor closed, and
   * its connection stays checked out until the client closes. Reported when the function holds an
   * iterator over a response (`lines = response.iter_lines()`).
   */
  private stopIteration(node: Node, current: Block): void {
    if (!isStopIteration(node)) return;
    const fn = this.body.parent?.type === 'function_definition' ? (this.body.parent.childForFieldName('name')?.text ?? '') : '';
    let caught = false;
    for (let child = node, parent = node.parent; parent && parent.id !== this.body.id; child = parent, parent = parent.parent) {
      if (parent.type === 'try_statement' && parent.childForFieldName('body')?.id === child.id) {
        caught ||= named(parent).some((clause) => clause.type === 'except_clause' && /\bStop(?:Async)?Iteration\b/.test(named(clause)[0]?.text ?? ''));
      }
    }
    if (!caught && fn !== '__next__' && fn !== '__anext__') return;
    const response = this.heldResponse();
    if (!response) return;
    const site: CloseSite = { kind: 'implicit', node, statement: node, stream: response, method: 'abandoned', by: 'nothing', exempt: this.isExempt(node) };
    current.events.push({ kind: 'close', site });
  }

  /** The response an iterator held in a name reads (`response` for `lines = response.iter_lines()`). */
  private heldResponse(): string | null {
    for (const { target, value } of this.bindings) {
      const call = unwrap(value);
      const callee = call.type === 'call' ? call.childForFieldName('function') : null;
      const receiver = callee?.type === 'attribute' ? callee.childForFieldName('object') : null;
      if (target.type !== 'identifier' || !receiver || !/^a?iter_/.test(lastName(callee!))) continue;
      if (/^[A-Za-z_][\w.]*$/.test(receiver.text) && this.streams.isStream(receiver)) return receiver.text;
    }
    return null;
  }

  /** `await response.aread()`, `response.read()`, or a drain function given the stream (`_drain_response(response, events)`). */
  private readsToEnd(call: Node): boolean {
    const callee = call.childForFieldName('function');
    if (!callee) return false;
    const args = named(call.childForFieldName('arguments'));
    const name = lastName(callee);
    if (READ_TO_END.has(name) && args.length === 0 && callee.type === 'attribute') {
      const receiver = callee.childForFieldName('object');
      return receiver !== null && this.streams.isStream(receiver);
    }
    return words(name).some((word) => DRAIN_WORDS.has(word)) && args.some((arg) => arg.type !== 'keyword_argument' && this.streams.isStream(arg));
  }

  private statementOf(node: Node): Node {
    let current = node;
    while (current.parent && current.parent.type !== 'block' && current.parent.type !== 'module') current = current.parent;
    return current;
  }

  private innermostLoop(): number {
    for (let i = this.frames.length - 1; i >= 0; i--) if (this.frames[i].kind === 'loop') return i;
    return -1;
  }

  /**
   * A `break`/`return` that leaves a `for` loop and with it an `async with`/`with` that owns a
   * response, or leaves it towards a `finally` that closes one: the response is closed right there.
   */
  private implicitClose(node: Node, current: Block, jump: 'break' | 'return'): void {
    const loopIndex = jump === 'break' ? this.innermostLoop() : this.frames.findIndex((frame) => frame.kind === 'loop' && frame.isFor);
    if (loopIndex === -1) return;
    const loop = this.frames[loopIndex] as Extract<Frame, { kind: 'loop' }>;
    if (!loop.isFor) return;
    // For a return every enclosing frame is left; a loop inside the owner is enough. For a break, the owner must enclose the loop.
    const limit = jump === 'return' ? this.frames.length : loopIndex;
    for (let i = limit - 1; i >= 0; i--) {
      const frame = this.frames[i];
      let closer: { stream: string; method: string; by: string } | null = null;
      if (frame.kind === 'with' && frame.owns) {
        const method = frame.isAsync ? 'async with' : 'with';
        closer = { stream: frame.owns, method, by: `its \`${method}\`` };
      } else if (frame.kind === 'finally' && frame.closes) closer = { stream: frame.closes, method: 'finally', by: 'its `finally`' };
      else if (frame.kind === 'outer') closer = { stream: frame.closer.stream, method: 'outer', by: frame.closer.by };
      if (!closer) continue;
      // The loop left must be inside the owner; leaving a `with` (or the function, for an outer close) closes the
      // body only if the loop read it (a `finally` that closes a response is evidence enough that the loop in its `try` reads it).
      const left = jump === 'break' ? [loop] : this.frames.slice(i + 1).filter((f): f is Extract<Frame, { kind: 'loop' }> => f.kind === 'loop' && f.isFor);
      if (left.length === 0 || (frame.kind !== 'finally' && !left.some((f) => f.readsStream))) continue;
      const site: CloseSite = { kind: 'implicit', node, statement: node, ...closer, exempt: this.isExempt(node) };
      current.events.push({ kind: 'close', site });
      return;
    }
  }

  /** A jump to `target`, through the `finally` blocks it leaves (frames from `depth` up). */
  private jump(from: Block, target: Block, depth: number): void {
    let source: Block | null = from;
    let hop: Extract<Frame, { kind: 'finally' }> | null = null;
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
    this.frames.push({ kind: 'loop', node, isFor: true, readsStream: iterable !== null && this.streams.isStream(iterable), breakTo: after, continueTo: head });
    const bodyStart = this.graph.block();
    this.graph.edge(head, bodyStart);
    const end = this.statements(named(node.childForFieldName('body')), bodyStart);
    this.frames.pop();
    this.graph.edge(end, head);
    // The loop ran out: the iterator reached its end, EOF for a loop over a stream.
    const exhausted = this.graph.block();
    exhausted.events.push({ kind: 'eof' });
    this.graph.edge(head, exhausted);
    const orElse = node.childForFieldName('alternative');
    this.graph.edge(orElse ? this.statements(named(orElse.childForFieldName('body')), exhausted) : exhausted, after);
    return after;
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
    let frame: Extract<Frame, { kind: 'finally' }> | null = null;
    if (finallyClause) {
      frame = { kind: 'finally', entry: this.graph.block(), exits: [], closes: this.finallyCloses(finallyClause) };
      this.frames.push(frame);
    }
    const normalEnd = this.graph.block();
    const bodyEnd = this.statements(named(body), current);
    this.graph.edge(orElse ? this.statements(named(orElse.childForFieldName('body')), bodyEnd) : bodyEnd, normalEnd);
    for (const handler of handlers) {
      // An except block is an error path: it starts with nothing pending (closes in it are exempt anyway).
      const start = this.graph.block();
      this.graph.roots.push(start);
      const block = named(handler).find((child) => child.type === 'block');
      this.graph.edge(this.statements(named(block ?? null), start), normalEnd);
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

  /** The response a `finally` closes (`response.close()`, `await response.aclose()`), if any. */
  private finallyCloses(clause: Node): string | null {
    let found: string | null = null;
    forEachCall(clause, (call) => {
      const close = StreamScope.closeCall(call, this.closeMethods);
      if (found === null && close && this.streams.isStream(close.receiver)) found = close.receiver.text;
    });
    return found;
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

  /** Whether a site lies on an exempt path: an except block, a branch that raises or whose test is about errors, a not-finished guard. */
  private isExempt(site: Node): boolean {
    let child = site;
    let branchBoundary = false;
    for (let node = site.parent; node && node.id !== this.body.id; child = node, node = node.parent) {
      switch (node.type) {
        case 'except_clause':
        case 'except_group_clause':
          return true;
        case 'block':
          if (!branchBoundary) {
            const last = named(node).at(-1);
            if (last?.type === 'raise_statement' && !isStopIteration(last)) return true;
          }
          break;
        case 'if_statement':
        case 'elif_clause': {
          if (child.type === 'block' && node.childForFieldName('consequence')?.id === child.id) {
            const test = node.childForFieldName('condition');
            if (test && this.exemptWhenTrue(test)) return true;
          }
          branchBoundary = true;
          break;
        }
        case 'else_clause':
          if (node.parent?.type === 'if_statement') {
            const test = node.parent.childForFieldName('condition');
            if (test && this.meaning(test).exemptFalse) return true;
          }
          branchBoundary = true;
          break;
        case 'while_statement':
        case 'case_clause':
          branchBoundary = true;
          break;
        default:
          break;
      }
    }
    return false;
  }

  private exemptWhenTrue(test: Node): boolean {
    const meaning = this.meaning(test);
    // `if not done:` is the not-finished guard of a close: the stream has not finished on that side.
    return meaning.exemptTrue || meaning.negTerminal !== null;
  }
}
