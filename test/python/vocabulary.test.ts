// One vocabulary for both front ends: the JavaScript rule's words.ts re-exports rules/contract/vocabulary.ts,
// which the Python front end imports directly.
import { describe, expect, it } from 'vitest';
import * as words from '../../rules/analysis/words.js';
import * as vocabulary from '../../rules/contract/vocabulary.js';
import { lintPythonText } from '../../rules/python/lint.js';
import { lintText } from '../support/lint-text.js';

describe('the shared vocabulary', () => {
  it('words.ts exports the same functions and patterns as rules/contract/vocabulary.ts', () => {
    for (const name of ['DEFAULT_TERMINAL_PATTERNS', 'JSON_RPC_REPLY_TOKEN', 'compilePatterns', 'exemptKind', 'isExemptToken', 'isResponseName', 'matchesTerminal', 'toSnake', 'words'] as const) {
      expect(words[name], name).toBe(vocabulary[name]);
    }
  });

  it.each([
    ['message_stop', true],
    ['[DONE]', true],
    ['response.completed', true],
    ['error', false],
    ['delta', false],
  ])('a test on the event %j is terminal in both front ends: %s', async (event, terminal) => {
    const js = `export async function f(url) {\n  const res = await fetch(url);\n  const reader = res.body.getReader();\n  while (true) {\n    const { value } = await reader.read();\n    if (value === ${JSON.stringify(event)}) {\n      await reader.cancel();\n      return;\n    }\n  }\n}\n`;
    const py = `async def f(response):\n    async for value in response.aiter_lines():\n        if value == ${JSON.stringify(event)}:\n            await response.aclose()\n            return\n`;
    expect(lintText(js, 'f.js').length).toBe(terminal ? 1 : 0);
    expect((await lintPythonText(py)).messages.length).toBe(terminal ? 1 : 0);
  });
});
