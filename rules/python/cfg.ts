import type { Family } from '../core/effect.js';
import { ENTRY, pendingEvent, type FlowState } from '../core/facts.js';
import type { FlowGraph, Op } from '../core/graph.js';
import { solveFlow } from '../core/solve.js';
import type { Node } from './parser.js';

/** What happens at a point of a function, in order, inside a block. */
export type FlowEvent =
  | { kind: 'terminal'; label: string }
  /** EOF of the body `response` names (`responseOf` in streams.ts); null where the builder knows a body ends, not whose. */
  | { kind: 'eof'; response: string | null }
  /** A close (explicit call, or a jump that leaves the loop and with it the response): reported when a terminal event may be pending. */
  | { kind: 'close'; site: CloseSite };

/** A caller of the module that closes what it passed to the function: the call, what it passed (`response`, `response.iter_lines()`), the response it holds. */
export interface CallerClose {
  call: Node;
  argument: Node;
  response: string;
}

export interface CloseSite {
  kind: 'explicit' | 'implicit';
  /** The close call (explicit) or the `break`/`return` statement (implicit). */
  node: Node;
  /** The statement that holds the site (where a drain goes, right before it). */
  statement: Node;
  /** Text of the closed stream (explicit) or of the response the jump closes (implicit). */
  stream: string;
  /**
   * `aclose`, `close`, `release`; for an implicit close what closes it: `async with`, `with`, `finally`,
   * `outer` (see OuterCloser), `producer` (the `with` of a generator the loop leaves unfinished), or `abandoned` (a
   * `raise StopIteration`, or a jump out of the `except StopIteration:` a parser's terminal event raised, that leaves
   * the body open).
   */
  method: string;
  /** For an implicit close, what closes the stream as the report names it (``its `finally` ``, ``the caller `ask` (line 12)``). */
  by?: string;
  /** For a caller's close (`outer`): the caller's call, what it passed, the response it holds. */
  caller?: CallerClose;
  /** On an exempt path (except, a branch that raises or is about errors, a not-finished guard). */
  exempt: boolean;
  /** The response it closes, by the name that holds it (`responseOf`); null where that is not known here. */
  response: string | null;
}

export interface Block {
  readonly id: number;
  readonly events: FlowEvent[];
  readonly successors: Block[];
}

/**
 * One function's blocks, built by build.ts, as the analysis core's graph: a terminal event recognised, EOF of the body
 * and a close (after which the stream is closed: nothing is pending) are the core's effects and sites.
 */
export class Graph implements FlowGraph<Block, CloseSite> {
  readonly blocks: Block[] = [];
  /** Blocks the analysis starts from with nothing pending: the entry and each `except` handler. */
  readonly roots: Block[] = [];
  private readonly incoming: Block[][] = [];
  private readonly translated: Array<readonly Op<CloseSite>[]> = [];
  private perResponse: boolean | undefined;

  block(): Block {
    const block: Block = { id: this.blocks.length, events: [], successors: [] };
    this.blocks.push(block);
    return block;
  }

  edge(from: Block | null, to: Block): void {
    if (from && !from.successors.includes(to)) {
      from.successors.push(to);
      this.predecessorsOf(to).push(from);
    }
  }

  entries(): ReadonlyArray<readonly [Block, FlowState]> {
    return this.roots.map((root) => [root, ENTRY] as const);
  }

  successors(block: Block): readonly Block[] {
    return block.successors;
  }

  predecessors(block: Block): readonly Block[] {
    return this.incoming[block.id] ?? NO_BLOCKS;
  }

  ops(block: Block): readonly Op<CloseSite>[] {
    return (this.translated[block.id] ??= block.events.flatMap((event) => this.opsOf(event)));
  }

  /**
   * The family the core tracks a close's or an EOF's response by: the name that holds the response when every close
   * and EOF of the function names one, else one body for the whole function (a loop over a generator of the module,
   * a producer's response: the builder knows that a body ends or is closed, not which).
   */
  familyOf(response: string | null): Family {
    this.perResponse ??= this.blocks.every((block) => block.events.every((event) => event.kind === 'terminal' || (event.kind === 'eof' ? event.response : event.site.response) !== null));
    return this.perResponse && response !== null ? response : BODY;
  }

  private opsOf(event: FlowEvent): Array<Op<CloseSite>> {
    switch (event.kind) {
      case 'terminal':
        return [{ kind: 'effect', effect: { kind: 'gen', label: event.label } }];
      case 'eof':
        return [{ kind: 'effect', effect: { kind: 'kill', family: this.familyOf(event.response) } }];
      case 'close':
        return [{ kind: 'site', site: event.site }, KILL_ALL];
    }
  }

  along(_from: Block, _into: Block, state: FlowState): FlowState {
    return state;
  }

  private predecessorsOf(block: Block): Block[] {
    return (this.incoming[block.id] ??= []);
  }
}

const NO_BLOCKS: readonly Block[] = [];
/** The one body of a function whose closes or EOFs do not all name their response. */
const BODY: Family = {};
const KILL_ALL: Op<CloseSite> = { kind: 'effect', effect: { kind: 'killAll' } };

export interface Report {
  site: CloseSite;
  event: string;
}

/**
 * Solves the graph with the analysis core and reports each non-exempt close reached with a terminal event pending
 * (once per close: a `finally` built on several paths holds its close more than once).
 */
export function solve(graph: Graph): Report[] {
  const reports: Report[] = [];
  const seen = new Set<number>();
  for (const [site, state] of solveFlow(graph).sites) {
    const event = pendingEvent(state, graph.familyOf(site.response));
    if (event === null || site.exempt || seen.has(site.node.id)) continue;
    seen.add(site.node.id);
    reports.push({ site, event });
  }
  return reports.sort((a, b) => a.site.node.startIndex - b.site.node.startIndex);
}

