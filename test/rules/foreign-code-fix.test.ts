/**
 * What `drainguard fix` does with the sites of issue 17's new shapes: where the terminal event was recognised in a
 * called function, or the close is part of an expression, it must leave the site `manual` with a reason, never rewrite
 * it half-way; where a reader or a `for await` over the body is in hand, the rewrite is the usual bounded drain.
 */
import { describe, expect, it } from 'vitest';
import { rewrite } from '../../codemods/rewrite.js';
import { foreignCodeInvalid } from './cases-foreign-code.js';

const byName = new Map(foreignCodeInvalid.map((testCase) => [testCase.name, testCase]));

function fixOf(name: string) {
  const testCase = byName.get(name);
  if (!testCase) throw new Error(`no case named ${name}`);
  const result = rewrite(testCase.code, testCase.js ? 'case.js' : 'case.ts');
  return { result, expected: testCase.errors.map(({ line, column }) => ({ line, column })) };
}

describe('drainguard fix on the shapes of issue 17', () => {
  it.each([
    'helper: a generator returns at the `complete` event; the caller aborts the request after running it out',
    'helper: an awaited function returns at `message_stop`; the caller cancels the reader after it',
    'compiled: a reader returned by a local function over a request helper, cancelled in `finally` after the completion ended the loop',
    'untyped short name: `x.body.cancel()` after the terminal event',
  ])('%s: manual with a reason, the file unchanged', (name) => {
    const { result, expected } = fixOf(name);
    expect(result.sites.map(({ line, column, status }) => ({ line, column, status }))).toEqual(expected.map((at) => ({ ...at, status: 'manual' })));
    expect(result.sites.every((site) => (site.reason ?? '').length > 0)).toBe(true);
    expect(result.output).toBeNull();
  });

  it('an untyped `r.body.getReader()` reader is drained like any reader', () => {
    const { result } = fixOf('untyped short name: `r.body.getReader()` of a parameter named `r`');
    expect(result.sites).toEqual([{ line: 7, column: 13, status: 'fixed' }]);
    expect(result.output).toContain('      void drainReader(reader, 1000);\n      break;\n');
  });
});
