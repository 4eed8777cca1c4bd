// rules/contract/drain-options.ts: the drain's bounds, as `drainguard fix`, the jscodeshift transform (strings) and the
// Python rewrite take them.
import { describe, expect, it } from 'vitest';
import { drainBounds } from '../../rules/contract/drain-options.js';

describe('drainBounds', () => {
  it('fills in 1000 ms and 128 KiB where nothing is given', () => {
    expect(drainBounds()).toEqual({ drainTimeoutMs: 1000, drainMaxBytes: 131072 });
    expect(drainBounds({ drainTimeoutMs: 0 })).toEqual({ drainTimeoutMs: 0, drainMaxBytes: 131072 });
  });

  it('takes whole numbers written as text (jscodeshift passes --drainTimeoutMs=500 as a string)', () => {
    expect(drainBounds({ drainTimeoutMs: '500', drainMaxBytes: ' 4096 ' })).toEqual({ drainTimeoutMs: 500, drainMaxBytes: 4096 });
  });

  it('refuses anything else with the value as it was written', () => {
    expect(() => drainBounds({ drainTimeoutMs: 'soon' })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got soon'));
    expect(() => drainBounds({ drainMaxBytes: -1 })).toThrow(new RangeError('drainMaxBytes must be a whole number >= 0, got -1'));
    expect(() => drainBounds({ drainMaxBytes: 1.5 })).toThrow(new RangeError('drainMaxBytes must be a whole number >= 0, got 1.5'));
    expect(() => drainBounds({ drainTimeoutMs: '' })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got '));
    expect(() => drainBounds({ drainTimeoutMs: [1] })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got [1]'));
    expect(() => drainBounds({ drainTimeoutMs: Number.NaN })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got NaN'));
  });
});
