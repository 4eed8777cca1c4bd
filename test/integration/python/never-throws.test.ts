/**
 * The rewrites of the generated Python programs (test/python/generated-programs.ts, the same seed as the property of
 * test/python/never-throws.test.ts) compile with CPython (Debian's python3, a process).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lintAndRewriteGenerated } from '../../python/generated-programs.js';
import { PYTHON } from '../../support/python-compile.js';

describe('Python rule and fix on generated programs', () => {
  it('a rewrite compiles with python3', async () => {
    const { rewritten } = await lintAndRewriteGenerated();
    expect(rewritten.length).toBeGreaterThan(5);
    const compile = spawnSync(PYTHON, ['-c', 'import json, sys\nfor i, text in enumerate(json.load(sys.stdin)):\n    compile(text, f"<rewrite {i}>", "exec")'], {
      input: JSON.stringify(rewritten),
      encoding: 'utf8',
    });
    expect(compile.stderr).toBe('');
    expect(compile.status).toBe(0);
  });
});
