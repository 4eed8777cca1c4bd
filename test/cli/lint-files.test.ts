// cli/lint-files.ts: how much of the text left for oxlint this process lints itself, beside one oxlint process.
import { describe, expect, it } from 'vitest';
import { inProcessShare } from '../../cli/lint-files.js';

describe('inProcessShare', () => {
  it('balances the two ends: ESLint loaded here against an oxlint start, then each one\'s cost per KB', () => {
    // (300 ms oxlint start - 150 ms ESLint load + 1.6 ms/KB x 1000 KB) / (2.4 + 1.6) ms/KB = 437.5 KB
    expect(inProcessShare(1000 * 1024, false)).toBe(448_000);
    expect(inProcessShare(100 * 1024, false)).toBe(79_360);
  });

  it('keeps more here when ESLint is loaded anyway, and never more than there is', () => {
    // (300 + 1.6 x 100) / 4 = 115 KB, of 100 KB
    expect(inProcessShare(100 * 1024, true)).toBe(102_400);
    expect(inProcessShare(0, false)).toBe(0);
  });
});
