// The analysis core on graphs written by hand: what a third front end would build (docs/architecture.md).
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../rules/core/effect.js';
import { ENTRY, PENDING_AT_ENTRY, pendingEvent, type FlowState } from '../../../rules/core/facts.js';
import type { FlowGraph, Op } from '../../../rules/core/graph.js';
import { solveFlow } from '../../../rules/core/solve.js';

/** A block: its ops written as short strings, and the blocks it flows to. */
interface Spec {
  ops: string[];
  next: string[];
}

/**
 * A graph from `{ name: { ops, next } }`: `gen:LABEL` (a terminal event), `eof:FAMILY`, `killAll`, `close:FAMILY`
 * (a site), `spawn:NAME`; `edges` holds effects of single edges (`from>into`); the first block is the entry.
 */
class HandGraph implements FlowGraph<string, string, string> {
  constructor(
    private readonly blocks: Record<string, Spec>,
    private readonly seed: FlowState = ENTRY,
    private readonly edges: Record<string, Effect> = {},
  ) {}

  entries(): ReadonlyArray<readonly [string, FlowState]> {
    return [[Object.keys(this.blocks)[0], this.seed]];
  }

  successors(block: string): readonly string[] {
    return this.blocks[block].next;
  }

  predecessors(block: string): readonly string[] {
    return Object.keys(this.blocks).filter((name) => this.blocks[name].next.includes(block));
  }

  ops(block: string): readonly Op<string, string>[] {
    return this.blocks[block].ops.map((text): Op<string, string> => {
      const [kind, argument] = text.split(':');
      if (kind === 'gen') return { kind: 'effect', effect: { kind: 'gen', label: argument } };
      if (kind === 'eof') return { kind: 'effect', effect: { kind: 'kill', family: argument } };
      if (kind === 'killAll') return { kind: 'effect', effect: { kind: 'killAll' } };
      if (kind === 'spawn') return { kind: 'spawn', child: argument };
      return { kind: 'site', site: `${block}/${argument}` };
    });
  }

  along(from: string, into: string, state: FlowState): FlowState {
    const effect = this.edges[`${from}>${into}`];
    if (!effect || !state) return state;
    if (effect.kind === 'gen') return { pending: { eofed: state.eof, label: effect.label }, eof: state.eof };
    return effect.kind === 'killAll' ? { pending: null, eof: state.eof } : state;
  }
}

/** The event pending at each site for the family the site names, as `site=event` (`-` for none). */
function reports(graph: HandGraph): string[] {
  return [...solveFlow(graph).sites].map(([site, state]) => `${site}=${pendingEvent(state, site.split('/')[1]) ?? '-'}`);
}

describe('the analysis core solves a front end graph', () => {
  it('a close after a branch that saw the terminal event has it pending (may), one before it has not', () => {
    const graph = new HandGraph({
      entry: { ops: ['close:res'], next: ['done', 'more'] },
      done: { ops: ['gen:[DONE]'], next: ['join'] },
      more: { ops: [], next: ['join'] },
      join: { ops: ['close:res'], next: [] },
    });
    expect(reports(graph)).toEqual(['entry/res=-', 'join/res=[DONE]']);
  });

  it('tracks the end of the body per response: EOF of one response drains that one only', () => {
    const graph = new HandGraph({
      entry: { ops: ['gen:message_stop', 'eof:a', 'close:a', 'close:b'], next: [] },
    });
    expect(reports(graph)).toEqual(['entry/a=-', 'entry/b=message_stop']);
  });

  it('a response drained on one pending path only is still pending at the merge', () => {
    const graph = new HandGraph({
      entry: { ops: ['gen:[DONE]'], next: ['drain', 'skip'] },
      drain: { ops: ['eof:res'], next: ['join'] },
      skip: { ops: [], next: ['join'] },
      join: { ops: ['close:res'], next: [] },
    });
    expect(reports(graph)).toEqual(['join/res=[DONE]']);
  });

  it('a stream at EOF stays there: a terminal event recognised after the EOF of every path finds it drained', () => {
    const graph = new HandGraph({
      entry: { ops: ['eof:res', 'gen:finished', 'close:res', 'close:other'], next: [] },
    });
    expect(reports(graph)).toEqual(['entry/res=-', 'entry/other=finished']);
  });

  it('reaches a fixed point over a loop: the event seen in the body is pending at the head on the next turn', () => {
    const graph = new HandGraph({
      entry: { ops: [], next: ['head'] },
      head: { ops: ['close:res'], next: ['body', 'exit'] },
      body: { ops: ['gen:[DONE]'], next: ['head'] },
      exit: { ops: ['close:res'], next: [] },
    });
    expect(reports(graph)).toEqual(['head/res=[DONE]', 'exit/res=[DONE]']);
  });

  it('applies the effects of single edges, and after a close-all nothing is pending', () => {
    const graph = new HandGraph(
      {
        entry: { ops: [], next: ['yes', 'no'] },
        yes: { ops: ['close:res', 'killAll', 'close:res'], next: [] },
        no: { ops: ['close:res'], next: [] },
      },
      ENTRY,
      { 'entry>yes': { kind: 'gen', label: 'chunk.type === "done"' } },
    );
    expect(reports(graph)).toEqual(['yes/res=chunk.type === "done"', 'no/res=-']);
  });

  it('gives each nested function the merged facts where it is written, and solves from the seed given', () => {
    const graph = new HandGraph(
      {
        entry: { ops: [], next: ['a', 'b'] },
        a: { ops: ['eof:res', 'spawn:callback'], next: [] },
        b: { ops: ['spawn:callback', 'close:res'], next: [] },
      },
      PENDING_AT_ENTRY,
    );
    const { spawns } = solveFlow(graph);
    expect([...spawns].map(([child, state]) => `${child}=${pendingEvent(state, 'res') === null ? 'drained' : 'pending'}`)).toEqual(['callback=pending']);
    expect(reports(graph)).toEqual(['b/res=']);
  });

  it('leaves sites where nothing flows (a callback written where nothing reaches) with no facts', () => {
    const graph = new HandGraph({ entry: { ops: ['close:res'], next: [] } }, null);
    expect([...solveFlow(graph).sites]).toEqual([['entry/res', null]]);
  });
});
