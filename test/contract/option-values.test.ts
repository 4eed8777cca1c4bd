// rules/contract/option-values.ts: option values as jscodeshift (strings, numbers) or a program (any value) gives them.
import { describe, expect, it } from 'vitest';
import { asWritten, optionList } from '../../rules/contract/option-values.js';

describe('asWritten', () => {
  it('gives a string or a number as is, anything else as JSON', () => {
    expect(asWritten('/repo/drain body.ts')).toBe('/repo/drain body.ts');
    expect(asWritten(500)).toBe('500');
    expect(asWritten(Number.NaN)).toBe('NaN');
    expect(asWritten(true)).toBe('true');
    expect(asWritten(['a', 1])).toBe('["a",1]');
    expect(asWritten({ ms: 5 })).toBe('{"ms":5}');
    expect(asWritten(undefined)).toBe('undefined');
  });
});

describe('optionList', () => {
  it('splits a comma list, trims each item and drops empty ones', () => {
    expect(optionList('cancel, abort,,destroy ')).toEqual(['cancel', 'abort', 'destroy']);
    expect(optionList('')).toEqual([]);
  });

  it('takes an array item by item (a comma inside an item stays), and a lone number as its text', () => {
    expect(optionList(['\\[DONE\\]', 'a,b', ' ', 7])).toEqual(['\\[DONE\\]', 'a,b', '7']);
    expect(optionList(42)).toEqual(['42']);
  });

  it('gives undefined where nothing is given (the defaults apply)', () => {
    expect(optionList(undefined)).toBeUndefined();
  });
});
