// The glob patterns of the test configs drainguard fix reads to place the test of a helper module. Where the test goes
// in small projects (testLayoutFor, which asks git which files it keeps): test/integration/cli/test-layout.test.ts.
import { describe, expect, it } from 'vitest';
import { globToRegExp, matchesPattern } from '../../../cli/fix/test-layout.js';

describe('the glob patterns of test configs', () => {
  it.each([
    ['tests/**/*.test.ts', 'tests/a/b.test.ts', true],
    ['tests/**/*.test.ts', 'tests/b.test.ts', true],
    ['tests/**/*.test.ts', 'src/b.test.ts', false],
    ['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'src/a.spec.mjs', true],
    ['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'src/a.test.tsx', true],
    ['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'src/a.ts', false],
    ['**/?(*.)+(spec|test).[jt]s?(x)', 'a/b/c.test.js', true],
    ['test/*.{js,cjs,mjs}', 'test/a.js', true],
    ['test/*.{js,cjs,mjs}', 'test/sub/a.js', false],
  ])('%s matches %s: %s', (glob, file, matches) => {
    expect(globToRegExp(glob).test(file)).toBe(matches);
  });

  it('reads ./ and <rootDir>/ as the config directory, and a bare directory as what is in it', () => {
    expect(matchesPattern('./tests/**/*.ts', '/p', '/p/tests/a.ts')).toBe(true);
    expect(matchesPattern('<rootDir>/tests/**/*.ts', '/p', '/p/tests/a.ts')).toBe(true);
    expect(matchesPattern('test/', '/p', '/p/test/deep/a.test.js')).toBe(true);
    expect(matchesPattern('**/*.ts', '/p/sub', '/p/a.ts')).toBe(false);
  });
});
