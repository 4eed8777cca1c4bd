// The helpers' own text, tested once: the module `drainguard fix` writes with every piece, in TypeScript and in
// JavaScript, is the literal text of test/rules/fixtures/with-helper/drain-body.ts and .js. The rule's suggestion
// tests import that module (their expected suggestions hold the import, not the helpers). After an intended change
// of a piece, write the two files again from helperModuleText and read the diff.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { helperModuleText } from '../../../rules/fix/helper-module.js';
import { HELPER_IDENTIFIERS, isPieceName } from '../../../rules/fix/helpers.js';
import { detectStyle } from '../../../rules/fix/style.js';
import { drainBounds } from '../../../rules/contract/drain-options.js';

const ALL_PIECES = HELPER_IDENTIFIERS.filter(isPieceName);
const literal = (name: string): string => readFileSync(new URL(`../fixtures/with-helper/${name}`, import.meta.url), 'utf8');

describe('the helper module with every piece', () => {
  it('in TypeScript', () => {
    expect(helperModuleText(ALL_PIECES, detectStyle('', true), drainBounds())).toBe(literal('drain-body.ts'));
  });

  it('in JavaScript', () => {
    expect(helperModuleText(ALL_PIECES, detectStyle('', false), drainBounds())).toBe(literal('drain-body.js'));
  });
});
