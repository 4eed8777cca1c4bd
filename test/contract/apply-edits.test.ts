import { describe, expect, it } from 'vitest';
import { applyEdits, mergeEdits } from '../../rules/contract/apply-edits.js';

describe('applyEdits (both front ends)', () => {
  it('applies edits in any order, insertions at one offset in list order', () => {
    const text = 'for x in r:\n    break\n';
    const edits = [
      { start: 16, end: 21, text: 'drain(it)\n    break' },
      { start: 0, end: 0, text: 'import a\n' },
      { start: 0, end: 0, text: 'import b\n' },
      { start: 9, end: 10, text: 'it' },
    ];
    expect(applyEdits(text, edits)).toBe('import a\nimport b\nfor x in it:\n    drain(it)\n    break\n');
  });

  it('throws on edits that overlap, and on two replacements of one span', () => {
    expect(() => applyEdits('abcdef', [{ start: 1, end: 4, text: 'x' }, { start: 3, end: 5, text: 'y' }])).toThrow('overlapping edits at 1-4 and 3');
    expect(() => applyEdits('abcdef', [{ start: 1, end: 3, text: 'x' }, { start: 1, end: 3, text: 'y' }])).toThrow('overlapping edits');
  });

  it('touching edits do not overlap', () => {
    expect(applyEdits('abcdef', [{ start: 0, end: 2, text: 'X' }, { start: 2, end: 4, text: 'Y' }])).toBe('XYef');
  });

  it('mergeEdits makes one edit that writes the same text', () => {
    expect(mergeEdits('abcdef', [{ start: 1, end: 2, text: 'B' }, { start: 4, end: 5, text: 'E' }])).toEqual({ start: 1, end: 5, text: 'BcdE' });
  });
});
