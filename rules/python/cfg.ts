import type { Node } from './parser.js';

/** What happens at a point of a function, in order, inside a block. */
export type FlowEvent =
  | { kind: 'terminal'; label: string }
  | { kind: 'eof' }
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
}

export interface Block {
  readonly id: number;
  readonly events: FlowEvent[];
  readonly successors: Block[];
}

export class Graph {
  readonly blocks: Block[] = [];
  /** Blocks the analysis starts from with nothing pending: the entry and each `except` handler. */
  readonly roots: Block[] = [];

  block(): Block {
    const block: Block = { id: this.blocks.length, events: [], successors: [] };
    this.blocks.push(block);
    return block;
  }

  edge(from: Block | null, to: Block): void {
    if (from && !from.successors.includes(to)) from.successors.push(to);
  }
}

/** Pending terminal event at a point: its label, or null (none pending, EOF reached, or the stream already closed). */
type Pending = string | null;

export interface Report {
  site: CloseSite;
  event: string;
}

/**
 * Solves "a terminal event may be pending" forward over the graph to a fixed point (a block is
 * revisited only when what reaches it grows, and it can grow once), then reports each non-exempt
 * close reached with one pending. No path is enumerated.
 */
export function solve(graph: Graph): Report[] {
  const entry = Array.from({ length: graph.blocks.length }, (): Pending => null);
  const visited = new Array<boolean>(graph.blocks.length).fill(false);
  const work: Block[] = [];
  const queued = new Array<boolean>(graph.blocks.length).fill(false);
  for (const root of graph.roots) {
    visited[root.id] = true;
    work.push(root);
    queued[root.id] = true;
  }
  while (work.length > 0) {
    const block = work.pop()!;
    queued[block.id] = false;
    const out = transfer(block, entry[block.id], undefined);
    for (const next of block.successors) {
      const before = entry[next.id]!;
      const grows = before === null && out !== null;
      if (grows) entry[next.id] = out;
      if ((grows || !visited[next.id]) && !queued[next.id]) {
        visited[next.id] = true;
        queued[next.id] = true;
        work.push(next);
      }
    }
  }
  const reports: Report[] = [];
  const seen = new Set<number>();
  for (const block of graph.blocks) {
    if (!visited[block.id]) continue;
    transfer(block, entry[block.id], (site, event) => {
      if (seen.has(site.node.id)) return;
      seen.add(site.node.id);
      reports.push({ site, event });
    });
  }
  return reports.sort((a, b) => a.site.node.startIndex - b.site.node.startIndex);
}

function transfer(block: Block, pending: Pending, report: ((site: CloseSite, event: string) => void) | undefined): Pending {
  let state = pending;
  for (const event of block.events) {
    if (event.kind === 'terminal') state = event.label;
    else if (event.kind === 'eof') state = null;
    else {
      if (state !== null && !event.site.exempt) report?.(event.site, state);
      state = null;
    }
  }
  return state;
}
