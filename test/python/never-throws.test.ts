/**
 * Property: on any Python function built around stream code (test/python/generated-programs.ts) the Python rule never
 * throws, its reports are inside the file, and the fix either leaves the file alone or writes Python that leaves no
 * site but the manual ones. That the rewrites compile (CPython, a process): test/integration/python/never-throws.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { lintAndRewriteGenerated } from './generated-programs.js';

describe('Python rule and fix on generated programs', () => {
  it('never throw; reports lie in the file; a rewrite leaves only manual sites', async () => {
    const { reported, rewritten } = await lintAndRewriteGenerated();
    // The property exercises the rule and the fix, not only clean code.
    expect(reported).toBeGreaterThan(30);
    console.log(`generated programs: ${reported} reports, ${rewritten.length} rewritten files`);
    expect(rewritten.length).toBeGreaterThan(5);
  });
});
