// rules/python/frames.ts: the constructs around a statement while a graph is built, and the close a jump out of them does.
import { describe, expect, it } from 'vitest';
import { Graph } from '../../../rules/python/cfg.js';
import { innermostLoop, jumpClose, type Frame, type LoopFrame } from '../../../rules/python/frames.js';
import { nodesOf } from './tree-nodes.js';

const graph = new Graph();
const [forNode] = await nodesOf('for x in y:\n    pass\n', 'for_statement');
const loop = (isFor: boolean, readsStream: boolean): LoopFrame => ({ kind: 'loop', node: forNode, isFor, readsStream, breakTo: graph.block(), continueTo: graph.block() });
const withOwning = (owns: string | null, isAsync = true): Frame => ({ kind: 'with', owns, isAsync });
const finallyClosing = (closes: string | null): Frame => ({ kind: 'finally', entry: graph.block(), exits: [], closes });

describe('innermostLoop', () => {
  it('is the index of the last loop frame, -1 outside every loop', () => {
    expect(innermostLoop([loop(true, true), withOwning('response'), loop(false, false), withOwning(null)])).toBe(2);
    expect(innermostLoop([withOwning('response')])).toBe(-1);
  });
});

describe('jumpClose', () => {
  it('a break out of a for over a response inside its async with closes it there', () => {
    expect(jumpClose([withOwning('response'), loop(true, true)], 'break')).toEqual({ stream: 'response', method: 'async with', by: 'its `async with`' });
    expect(jumpClose([withOwning('resp', false), loop(true, true)], 'return')).toEqual({ stream: 'resp', method: 'with', by: 'its `with`' });
  });

  it('a finally that closes a response closes it whether or not the loop is known to read it', () => {
    expect(jumpClose([finallyClosing('response'), loop(true, false)], 'break')).toEqual({ stream: 'response', method: 'finally', by: 'its `finally`' });
  });

  it('an outer closer closes on a return out of a loop that reads the stream', () => {
    const outer: Frame = { kind: 'outer', closer: { stream: 'response', by: 'the `with` of `generate`' } };
    expect(jumpClose([outer, loop(true, true)], 'return')).toEqual({ stream: 'response', method: 'outer', by: 'the `with` of `generate`' });
  });

  it('nothing closes: a while loop, a loop that does not read the stream, an owner inside the loop, a with that owns nothing', () => {
    expect(jumpClose([withOwning('response'), loop(false, true)], 'break')).toBeNull();
    expect(jumpClose([withOwning('response'), loop(true, false)], 'break')).toBeNull();
    expect(jumpClose([loop(true, true), withOwning('response')], 'break')).toBeNull();
    expect(jumpClose([withOwning(null), loop(true, true)], 'return')).toBeNull();
    expect(jumpClose([withOwning('response')], 'return')).toBeNull();
  });

  it('a return leaves every frame: an owner inside the outer loop closes when an inner loop reads the stream', () => {
    expect(jumpClose([loop(true, false), withOwning('response'), loop(true, true)], 'return')).toEqual({ stream: 'response', method: 'async with', by: 'its `async with`' });
  });
});
