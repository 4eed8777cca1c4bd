import { describe, expect, it } from 'vitest';
import { verifyRewrite } from '../../codemods/verify.js';

// The gate every rewrite passes before `fix` writes it, the jscodeshift transform returns it or the rule suggests it.
const reportedSite = [
  'export async function collect(url) {',
  '  const reader = (await fetch(url)).body.getReader()',
  '  while (true) {',
  '    const { done, value } = await reader.read()',
  '    if (done) break',
  "    if (value === '[DONE]') { await reader.cancel(); return }",
  '  }',
  '}',
  '',
].join('\n');

describe('verifyRewrite', () => {
  it('rolls back a rewrite that does not parse (the old no-semicolon rewrite of a one-line branch)', () => {
    const broken = reportedSite.replace('await reader.cancel(); return', 'void drainReader(reader, 1000) return');
    expect(verifyRewrite(broken, '/repo/collect.js', {}, 0)).toBe('rolled back: the rewrite does not parse (6:62 Parsing error: Unexpected token return)');
  });

  it('rolls back a rewrite that leaves its site reported', () => {
    expect(verifyRewrite(reportedSite, '/repo/collect.js', {}, 0)).toBe('rolled back: the rule still reports this site after the rewrite');
  });

  it('passes a rewrite that parses and leaves only the sites left as they were', () => {
    const fixed = reportedSite.replace('await reader.cancel(); return', 'void drainReader(reader, () => reader.cancel()); return');
    expect(verifyRewrite(fixed, '/repo/collect.js', {}, 0)).toBeNull();
    expect(verifyRewrite(reportedSite, '/repo/collect.js', {}, 1)).toBeNull();
  });
});
