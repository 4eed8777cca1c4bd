// CPython (Debian's python3, a process) on the Python rewrite's text: a file with its own quotes, indentation and CRLF
// line endings, the helper in each of its forms, and the syntax error lint and fix word as CPython does. The rewrite's
// text and ruff on it, in process: test/python/rewrite.test.ts.
import { describe, expect, it } from 'vitest';
import { CRLF_INPUT, UNPARSABLE, helperForms, rewriteIn } from '../../python/rewrite-cases.js';
import { pythonCompileError } from '../../support/python-compile.js';

describe('imports and layout', () => {
  it("the rewrite of a file with its own quotes, indentation and CRLF line endings compiles", async () => {
    const { output } = await rewriteIn({}, 'client.py', CRLF_INPUT, { drainMaxBytes: 0 });
    expect(pythonCompileError(output!)).toBeNull();
  });
});

describe('rule options and syntax errors', () => {
  it("a file that does not parse: CPython names the error lint and fix word", () => {
    const broken = UNPARSABLE;
    expect(pythonCompileError(broken)).toContain("SyntaxError: expected ':'");
  });
});

describe('the helper itself', () => {
  it('compiles with python3 in each of its forms', async () => {
    for await (const { output } of helperForms()) {
      expect(pythonCompileError(output!), output!).toBeNull();
    }
  });
});
