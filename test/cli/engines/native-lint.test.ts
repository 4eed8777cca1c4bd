// cli/engines/eslint-setup.ts createNativeLint: ESLint's Linter with the config built once and looked up by extension,
// giving what ESLint gives for every path, including paths no block of the config takes.
import { describe, expect, it } from 'vitest';
import { createESLint, createNativeLint } from '../../../cli/engines/eslint-setup.js';
import { EARLY_CANCEL_JS, EARLY_CANCEL_POSITION } from '../sources.js';

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

  it('places a report as ESLint does over CRLF, U+2028 and astral characters (nodes carry no loc of their own)', async () => {
    // Line 1: a comment with an astral character; line 3 ends inside the string at U+2028 (a line break to ESLint
    // and to the parsers); on line 12, 6 spaces, `/* \u{1F600} */ ` (9 UTF-16 units) and `await ` precede `reader.cancel()`.
    const text = [
      '// h\u00e9llo \u{1F600}',
      'export async function readUntilDone(res) {',
      "  const separator = '\u2028';",
      '  const reader = res.body.getReader();',
      '  const decoder = new TextDecoder();',
      '  while (true) {',
      '    const { done, value } = await reader.read();',
      '    if (done) break;',
      '    const text = decoder.decode(value) + separator;',
      "    if (text.includes('[DONE]')) {",
      '      /* \u{1F600} */ await reader.cancel();',
      '      break;',
      '    }',
      '  }',
      '}',
      '',
    ].join('\r\n');
    const expected = [{ line: 12, column: 22, endLine: 12, endColumn: 37 }];
    const eslint = await createESLint();
    for (const filePath of ['/p/a.js', '/p/b.ts']) {
      const native = (await lint(text, filePath)).messages;
      const [usual] = await eslint.lintText(text, { filePath, warnIgnored: true });
      const positions = (messages: typeof native) => messages.map(({ line, column, endLine, endColumn }) => ({ line, column, endLine, endColumn }));
      expect(positions(native), filePath).toEqual(expected);
      expect(positions(usual.messages), filePath).toEqual(expected);
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
