// The plugin object users import (rules/index.ts), wired into a real ESLint through its own
// recommended config. The rule's cases are in no-early-stream-close.test.ts; this checks the
// entry: names, the config, and that the rule runs through it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import plugin from '../../rules/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Line 7: four spaces and `if (value === "[DONE]") { ` (26 characters) precede `reader.cancel()`. */
const EARLY_CLOSE = [
  'export async function f(url) {',
  '  const res = await fetch(url);',
  '  const reader = res.body.getReader();',
  '  while (true) {',
  '    const { done, value } = await reader.read();',
  '    if (done) return;',
  '    if (value === "[DONE]") { reader.cancel(); return; }',
  '  }',
  '}',
  '',
].join('\n');

describe('the plugin entry', () => {
  it('is named and versioned as the package, with one rule', () => {
    expect(plugin.meta).toEqual({ name: packageJson.name, version: packageJson.version });
    expect(Object.keys(plugin.rules)).toEqual(['no-early-stream-close']);
  });

  it('its rule links to its docs page, which the package ships', () => {
    const url = plugin.rules['no-early-stream-close'].meta!.docs!.url!;
    expect(url).toMatch(/\/docs\/rules\/no-early-stream-close\.md$/);
    expect(existsSync(path.join(ROOT, 'docs/rules/no-early-stream-close.md'))).toBe(true);
    expect(packageJson.files).toContain('docs/rules');
  });

  it('its recommended config registers the plugin under the prefix its rule id uses, as an error', () => {
    const config = plugin.configs.recommended;
    expect(config.plugins).toEqual({ drainguard: plugin });
    expect(config.rules).toEqual({ 'drainguard/no-early-stream-close': 'error' });
  });

  it('is all a user needs in ESLint: the recommended config alone reports the close', async () => {
    const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: [plugin.configs.recommended] });
    const [result] = await eslint.lintText(EARLY_CLOSE, { filePath: path.join(ROOT, 'entry-check.js') });
    expect(result.messages.map(({ ruleId, severity, line, column }) => ({ ruleId, severity, line, column }))).toEqual([
      { ruleId: 'drainguard/no-early-stream-close', severity: 2, line: 7, column: 31 },
    ]);
  });
});
