/**
 * The project lints itself: eslint.config.js applies eslint-plugin-eslint-plugin's recommended rules to
 * rules/**\/*.ts (through typescript-eslint's parser). rules/ must have zero errors.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('self-lint', () => {
  const eslint = new ESLint({ cwd: root });

  it('applies the eslint-plugin recommended rules and the TypeScript parser to the rule sources', async () => {
    const config = (await eslint.calculateConfigForFile('rules/no-early-stream-close.ts')) as {
      rules: Record<string, unknown>;
      languageOptions: { parser?: { meta?: { name?: string } } };
    };
    expect(Object.keys(config.rules)).toEqual(expect.arrayContaining(['eslint-plugin/require-meta-type', 'eslint-plugin/require-meta-schema', 'eslint-plugin/no-unused-message-ids']));
    expect(config.languageOptions.parser?.meta?.name).toBe('typescript-eslint/parser');
  });

  // Type-checked lint of every rule source (the fix planning included): 25 s of CPU, more on a loaded machine.
  it('rules/ has zero errors', { timeout: 240_000 }, async () => {
    const results = await eslint.lintFiles(['rules/']);
    expect(results.length).toBeGreaterThan(0);
    const problems = results.flatMap((result) =>
      result.messages.filter((message) => message.severity === 2).map((message) => `${result.filePath}:${message.line}:${message.column} ${message.ruleId ?? 'fatal'} ${message.message}`),
    );
    expect(problems).toEqual([]);
  });

  it('would catch a broken rule (the config is effective)', async () => {
    const [result] = await eslint.lintText(
      [
        "import type { Rule } from 'eslint';",
        'const rule: Rule.RuleModule = {',
        "  meta: { messages: { used: 'x {{name}}', unused: 'y' }, schema: [] },",
        '  create(context) {',
        "    return { Identifier(node) { context.report({ node, messageId: 'used' }); } };",
        '  },',
        '};',
        'export default rule;',
      ].join('\n'),
      { filePath: `${root}/rules/broken-example.ts` },
    );
    const ruleIds = result.messages.map((message) => message.ruleId);
    expect(ruleIds).toEqual(expect.arrayContaining(['eslint-plugin/require-meta-type', 'eslint-plugin/no-unused-message-ids', 'eslint-plugin/no-missing-placeholders']));
  });

  it('ignores build output and fixtures', async () => {
    expect(await eslint.isPathIgnored(`${root}/dist/index.js`)).toBe(true);
    expect(await eslint.isPathIgnored(`${root}/test/rules/fixtures/typed/file.ts`)).toBe(true);
    expect(await eslint.isPathIgnored(`${root}/examples/sse-chat-client.ts`)).toBe(true);
  });
});
