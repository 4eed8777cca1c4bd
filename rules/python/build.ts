import { casePatternMeaning, testMeaning, type TestMeaning } from './conditions.js';
import { Graph, type Block } from './cfg.js';
import { isExemptPath } from './exempt.js';
import { innermostLoop, jumpClose, type FinallyFrame, type Frame, type OuterCloser } from './frames.js';
import type { Node } from './parser.js';
import { SiteFinder } from './sites.js';
import { StreamScope } from './streams.js';
import { untrustedFlags } from './terminal-flags.js';
import { collectBindings, isAsync, named } from './tree.js';

export interface BuildOptions {
  patterns: readonly RegExp[];
  closeMethods: ReadonlySet<string>;
  outer?: readonly OuterCloser[];
  /** Names bound to a flag another function of the module returns at a terminal event (see terminal-flags.ts). */
  flags?: ReadonlySet<string>;
}

const OPAQUE_STATEMENTS = new Set(['function_definition', 'class_definition', 'decorated_definition']);

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
    this.streams = new StreamScope(bindings, outer.map((closer) => closer.stream));
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

  /** The close a `break`/`return` does where it leaves a loop over a response that something around it closes. */
  private implicitClose(node: Node, current: Block, jump: 'break' | 'return'): void {
    const closer = jumpClose(this.frames, jump);
    if (closer) current.events.push({ kind: 'close', site: { kind: 'implicit', node, statement: node, ...closer, exempt: this.isExempt(node) } });
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
    let frame: FinallyFrame | null = null;
    if (finallyClause) {
      frame = { kind: 'finally', entry: this.graph.block(), exits: [], closes: this.sites.finallyCloses(finallyClause) };
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
    return isExemptPath(site, this.body, (test) => this.meaning(test));
  }
}
