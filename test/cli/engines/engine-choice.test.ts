// cli/engines/engine-choice.ts: how much of the text left for oxlint this process lints itself, beside one oxlint process, or
// none when oxlint's processes alone end sooner.
import { describe, expect, it } from 'vitest';
import { inProcessShare } from '../../../cli/engines/engine-choice.js';

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

  it('keeps nothing when two oxlint processes alone end sooner than one beside a share here', () => {
    // 1000 KB: two processes 300 + 1.6 x 1000 / 2 = 1100 ms; a share of 437.5 KB: both end at 1200 ms.
    expect(inProcessShare(1000 * 1024, false, 2)).toBe(0);
    // 265 KB: two processes 512 ms; a share of (150 + 1.6 x 265) / 4 = 143.5 KB: both end at 494 ms.
    expect(inProcessShare(265 * 1024, false, 2)).toBe(146_944);
  });
});
