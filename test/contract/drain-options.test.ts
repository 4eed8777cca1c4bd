// rules/contract/drain-options.ts: the drain's bounds, as `drainguard fix`, the jscodeshift transform (strings) and the
// Python rewrite take them.
import { describe, expect, it } from 'vitest';
import { callerWaitMs, drainBounds } from '../../rules/contract/drain-options.js';

describe('drainBounds', () => {
  it('fills in 1000 ms, 128 KiB and a 50 ms caller wait where nothing is given', () => {
    expect(drainBounds()).toEqual({ drainTimeoutMs: 1000, drainMaxBytes: 131072, drainWaitMs: 50 });
    expect(drainBounds({ drainTimeoutMs: 0 })).toEqual({ drainTimeoutMs: 0, drainMaxBytes: 131072, drainWaitMs: 50 });
  });

  it('takes whole numbers written as text (jscodeshift passes --drainTimeoutMs=500 as a string)', () => {
    expect(drainBounds({ drainTimeoutMs: '500', drainMaxBytes: ' 4096 ', drainWaitMs: '20' })).toEqual({ drainTimeoutMs: 500, drainMaxBytes: 4096, drainWaitMs: 20 });
  });

  it('refuses anything else with the value as it was written', () => {
    expect(() => drainBounds({ drainTimeoutMs: 'soon' })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got soon'));
    expect(() => drainBounds({ drainMaxBytes: -1 })).toThrow(new RangeError('drainMaxBytes must be a whole number >= 0, got -1'));
    expect(() => drainBounds({ drainMaxBytes: 1.5 })).toThrow(new RangeError('drainMaxBytes must be a whole number >= 0, got 1.5'));
    expect(() => drainBounds({ drainTimeoutMs: '' })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got '));
    expect(() => drainBounds({ drainTimeoutMs: [1] })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got [1]'));
    expect(() => drainBounds({ drainTimeoutMs: Number.NaN })).toThrow(new RangeError('drainTimeoutMs must be a whole number >= 0, got NaN'));
  });

  it("a drain the caller waits for gets drainWaitMs, at most drainTimeoutMs; 0 ms of budget is none for it either, a 0 ms wait the whole budget", () => {
    expect(callerWaitMs(drainBounds())).toBe(50);
    expect(callerWaitMs(drainBounds({ drainTimeoutMs: 20 }))).toBe(20);
    expect(callerWaitMs(drainBounds({ drainTimeoutMs: 0 }))).toBe(0);
    expect(callerWaitMs(drainBounds({ drainWaitMs: 0 }))).toBe(1000);
    expect(callerWaitMs({ drainTimeoutMs: 1000, drainMaxBytes: 131072 })).toBe(50);
  });
});
