// The Python fixtures compiled by CPython (a process: Debian's python3), input and output, and the correct files.
// The rule, the rewrite, its fixed point and ruff on the same fixtures, in process: test/python/fixtures.test.ts.
import { describe, expect, it } from 'vitest';
import { pythonCompileError } from '../../support/python-compile.js';
import { loadCleanPython, loadPythonFixtures } from '../../python/fixture-cases.js';

describe.each(loadPythonFixtures())('Python fixture $name', (fixture) => {
  it('input and output compile with python3', () => {
    expect(pythonCompileError(fixture.input, fixture.inputPath)).toBeNull();
    expect(pythonCompileError(fixture.output, fixture.inputPath)).toBeNull();
  });
});

describe.each(loadCleanPython())('correct Python $name', ({ text }) => {
  it('compiles with python3', () => {
    expect(pythonCompileError(text)).toBeNull();
  });
});
