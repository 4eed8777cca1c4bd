import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateOffsets, closeCandidatePattern, hasOffsetWithin } from '../../rules/javascript/prefilter.js';

const GLOBAL = new RegExp(closeCandidatePattern().source, 'g');

describe('candidate offsets (which functions the rule tracks)', () => {
  it('lists every close word after a dot, quoted computed key, `for await` and __asyncValues, in order', () => {
    const text = [
      'function a() { return 1; }', // a bare `return` statement is no candidate
      'function b(r) { r.cancel(); }',
      "function c(r) { r['abort'](); }",
      'async function d(s) { for  await (const x of s) {} }',
      'var e = tslib.__asyncValues(s);',
      'function f(it) { it . return(); }',
    ].join('\n');
    expect(candidateOffsets(text, GLOBAL).map((offset) => text.slice(offset, offset + 9))).toEqual([
      '.cancel()',
      "['abort']",
      'for  awai',
      '__asyncVa',
      '. return(',
    ]);
  });

  it('is empty for a file that cannot report, and starts over on every call', () => {
    expect(candidateOffsets('const x = a.\ncancel; // ends a sentence.\nreturn', GLOBAL)).toEqual([]);
    expect(candidateOffsets('r.cancel()', GLOBAL)).toEqual([1]);
    expect(candidateOffsets('r.cancel()', GLOBAL)).toEqual([1]);
    // A downleveled loop's finally reads `_e.return` and calls `_b.call(_e)`: no close is called by name.
    expect(candidateOffsets('if (!_d && !_a && (_b = _e.return)) await _b.call(_e);', GLOBAL)).toEqual([]);
    expect(candidateOffsets('r.cancel?.(); r . abort ()', GLOBAL)).toEqual([1, 16]);
  });

  it('counts an offset at the start of a range and not one at its end', () => {
    expect(hasOffsetWithin([5], 5, 9)).toBe(true);
    expect(hasOffsetWithin([9], 5, 9)).toBe(false);
    expect(hasOffsetWithin([4], 5, 9)).toBe(false);
    expect(hasOffsetWithin([], 0, 100)).toBe(false);
  });

  it('agrees with a linear scan on any sorted offsets and range', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(200)), fc.nat(200), fc.nat(60), (unsorted, start, length) => {
        const offsets = [...unsorted].sort((a, b) => a - b);
        const end = start + length;
        expect(hasOffsetWithin(offsets, start, end)).toBe(offsets.some((offset) => offset >= start && offset < end));
      }),
    );
  });
});
