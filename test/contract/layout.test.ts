// codemods/layout.ts: edits applied to text, merged into one suggestion, and the indentation they keep.
import { describe, expect, it } from 'vitest';
import { applyEdits, mergeEdits } from '../../rules/contract/apply-edits.js';
import { indentAt } from '../../rules/fix/edits.js';

describe('applyEdits', () => {
  it('applies edits given in any order, from the end backwards, so earlier offsets stay valid', () => {
    const text = 'const a = 1;\nconst b = 2;\n';
    const edits = [
      { start: 6, end: 7, text: 'first' },
      { start: 19, end: 20, text: 'second' },
    ];
    expect(applyEdits(text, edits)).toBe('const first = 1;\nconst second = 2;\n');
    expect(applyEdits(text, [...edits].reverse())).toBe('const first = 1;\nconst second = 2;\n');
  });

  it('inserts at an offset (start = end) and deletes (empty text)', () => {
    expect(applyEdits('ab', [{ start: 1, end: 1, text: 'X' }])).toBe('aXb');
    expect(applyEdits('abc', [{ start: 1, end: 2, text: '' }])).toBe('ac');
  });

  it('keeps edits that touch without overlapping', () => {
    expect(applyEdits('abcd', [{ start: 0, end: 2, text: '12' }, { start: 2, end: 4, text: '34' }])).toBe('1234');
  });

  it('throws on overlapping edits instead of writing a mangled text', () => {
    expect(() => applyEdits('abcdef', [{ start: 0, end: 3, text: 'x' }, { start: 2, end: 5, text: 'y' }])).toThrow('overlapping edits');
  });

  it('takes offsets into a larger text when given where the slice starts', () => {
    expect(applyEdits('cdef', [{ start: 3, end: 4, text: 'D' }], 2)).toBe('cDef');
  });

  it('returns the text unchanged without edits', () => {
    expect(applyEdits('same', [])).toBe('same');
  });
});

describe('mergeEdits', () => {
  it('is one edit from the first start to the last end, with the text between rewritten', () => {
    const text = 'if (done) {\n  await reader.cancel();\n  return;\n}\n';
    const merged = mergeEdits(text, [
      { start: 14, end: 36, text: 'void drainReader(reader, () => reader.cancel());' },
      { start: 0, end: 0, text: "import { drainReader } from './drain-body';\n" },
    ]);
    expect(merged).toEqual({
      start: 0,
      end: 36,
      text: "import { drainReader } from './drain-body';\nif (done) {\n  void drainReader(reader, () => reader.cancel());",
    });
    expect(applyEdits(text, [merged])).toBe("import { drainReader } from './drain-body';\nif (done) {\n  void drainReader(reader, () => reader.cancel());\n  return;\n}\n");
  });
});

describe('indentAt', () => {
  it('is the leading whitespace of the line that holds the offset', () => {
    const text = 'function f() {\n\t  if (x) {\n    y();\n  }\n}';
    expect(indentAt(text, text.indexOf('if'))).toBe('\t  ');
    expect(indentAt(text, text.indexOf('y()'))).toBe('    ');
    expect(indentAt(text, 0)).toBe('');
  });
});
