/**
 * The plugin `drainguard lint` hands to oxlint (dist/oxlint-plugin.js) records each report's
 * suggestion as ESLint shapes it, so `--format json` needs no second lint through ESLint. Run real
 * oxlint with it and compare the records with ESLint's suggestions for the same file.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLY_CANCEL_TS } from '../../../cli/sources.js';
import { ROOT, parseJson, runCli, tempProject } from '../../../cli/helpers.js';

describe('the oxlint plugin of drainguard lint', () => {
  it('records the same suggestion ESLint gives, at the report start (UTF-16 offset after non-ASCII text)', async () => {
    const source = `// héllo ✓ 𝄞\n${EARLY_CANCEL_TS}`;
    const dir = tempProject({ 'src/a.ts': source });
    const config = path.join(dir, 'oxlintrc.json');
    writeFileSync(
      config,
      JSON.stringify({ plugins: [], categories: { correctness: 'off' }, jsPlugins: [path.join(ROOT, 'dist/oxlint-plugin.js')], rules: { 'drainguard/no-early-stream-close': 'error' } }),
    );
    const records = path.join(dir, 'records.jsonl');
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/oxlint/bin/oxlint'), '-c', config, '--format', 'json', 'src/a.ts'], {
        cwd: dir,
        env: { ...process.env, DRAINGUARD_OXLINT_SUGGESTIONS: records },
        encoding: 'utf8',
      });
    } catch (error) {
      expect((error as { status: number }).status).toBe(1);
    }
    const lines = readFileSync(records, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { filename: string; start: number; suggestions: unknown[] });

    const eslint = parseJson(await runCli(['lint', '--format', 'json', 'src/a.ts'], dir, { DRAINGUARD_ENGINE: 'eslint' }));
    const messages = eslint[0].messages;
    expect(messages).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(path.resolve(dir, lines[0].filename)).toBe(path.join(dir, 'src/a.ts'));
    const lineStarts = source.split('\n').slice(0, messages[0].line - 1).reduce((sum, line) => sum + line.length + 1, 0);
    expect(lines[0].start).toBe(lineStarts + messages[0].column - 1);
    expect(lines[0].suggestions).toEqual((messages[0] as { suggestions?: unknown[] }).suggestions);
    expect(lines[0].suggestions).toHaveLength(1);
  });
});
