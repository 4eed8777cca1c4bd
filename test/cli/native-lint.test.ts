// cli/eslint-setup.ts createNativeLint: ESLint's Linter with the config built once and looked up by extension,
// giving what ESLint gives for every path, including paths no block of the config takes.
import { describe, expect, it } from 'vitest';
import { createNativeLint } from '../../cli/eslint-setup.js';
import { EARLY_CANCEL_JS, EARLY_CANCEL_POSITION } from './sources.js';

const lint = await createNativeLint();

describe('createNativeLint', () => {
  it('reports in .js, .mjs, .cjs and .ts files, inside node_modules too', async () => {
    for (const filePath of ['/p/a.js', '/p/b.mjs', '/p/node_modules/sdk/c.cjs', '/p/d.ts']) {
      // CommonJS has no `export` (the report is on line 9, which does not change).
      const text = filePath.endsWith('.cjs') ? EARLY_CANCEL_JS.replace('export ', '') : EARLY_CANCEL_JS;
      const { messages } = await lint(text, filePath);
      expect(messages.map(({ line, column, endLine, endColumn }) => ({ line, column, endLine, endColumn })), filePath).toEqual([EARLY_CANCEL_POSITION]);
    }
  });

  it('gives ESLint\'s own message, naming the real path, for an extension no block takes (globs are case-sensitive)', async () => {
    for (const filePath of ['/p/notes.txt', '/p/CLIENT.JS', '/p/bin/cli']) {
      expect((await lint(EARLY_CANCEL_JS, filePath)).messages).toEqual([
        { ruleId: null, severity: 1, message: `No matching configuration found for ${filePath}.`, line: 0, column: 0 },
      ]);
    }
  });
});
