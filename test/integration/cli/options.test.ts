/**
 * What `drainguard lint` and `fix` take besides paths: the aliases users type by reflex, the rule
 * options (the same in both commands, on every engine), colors, and files named explicitly.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLY_CANCEL_JS, EOS_STOP_JS, EOS_STOP_POSITION, UNPARSABLE_NO_CLOSE_WORDS_JS } from '../../cli/sources.js';
import { RULE_ID, parseFixJson, parseJson, runCli, tempProject } from '../../cli/helpers.js';

const EOS_MESSAGE =
  "`reader` is closed with `stop()` after the terminal event `value === 'eos'` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).";
const CUSTOM = ['--close-method', 'stop', '--terminal-pattern', '^eos$'];

describe('aliases', () => {
  it('lint --json is lint --format json', async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });
    const alias = await runCli(['lint', '--json'], dir);
    expect(alias.code).toBe(1);
    expect(alias).toEqual(await runCli(['lint', '--format', 'json'], dir));
  });

  it('fix --dry-run and fix -n are fix --dry; fix --diff is fix --dry --print', async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });
    const dry = await runCli(['fix', '--dry', '--json'], dir);
    expect(parseFixJson(dry).summary).toEqual({ filesScanned: 1, sitesFound: 1, fixed: 1, manual: 0, errors: 0 });
    expect(await runCli(['fix', '--dry-run', '--json'], dir)).toEqual(dry);
    expect(await runCli(['fix', '-n', '--json'], dir)).toEqual(dry);
    const diff = await runCli(['fix', '--diff'], dir);
    expect(diff).toEqual(await runCli(['fix', '--dry', '--print'], dir));
    expect(diff.stdout).toContain('-      await reader.cancel();\n');
    expect(readFileSync(path.join(dir, 'stream.js'), 'utf8')).toBe(EARLY_CANCEL_JS);
  });

  it('lint --color forces colors on a pipe, --no-color turns them off', async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });
    const colored = await runCli(['lint', '--color'], dir);
    expect(colored.stdout).toContain('\u001b[');
    const plain = await runCli(['lint', '--no-color'], dir, { FORCE_COLOR: '1' });
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toContain('9:13  error');
  });
});

describe('rule options in lint and fix', () => {
  it('lint reports a close only the given close method and terminal pattern describe, on every engine, and fix rewrites the same site', async () => {
    // Found by walking: the pre-filter must look for the given close method (the file names no default one).
    const dir = tempProject({ 'eos.js': EOS_STOP_JS });
    const expected = [{ filePath: path.join(dir, 'eos.js'), messages: [{ ruleId: RULE_ID, message: EOS_MESSAGE, ...EOS_STOP_POSITION }] }];
    for (const engine of ['auto', 'eslint', 'oxlint']) {
      const run = await runCli(['lint', '--format', 'json', ...CUSTOM], dir, { DRAINGUARD_ENGINE: engine });
      expect(run.code, engine).toBe(1);
      const shown = parseJson(run).map(({ filePath, messages }) => ({
        filePath,
        messages: messages.map(({ ruleId, message, line, column, endLine, endColumn }) => ({ ruleId, message, line, column, endLine, endColumn })),
      }));
      expect(shown, engine).toEqual(expected);
    }
    const fix = await runCli(['fix', '--dry', '--json', ...CUSTOM], dir);
    expect(parseFixJson(fix).files.map(({ path: file, sites }) => [path.basename(file), sites])).toEqual([
      ['drain-body.js', []],
      ['drain-body.test.js', []],
      ['eos.js', [{ line: 7, column: 13, status: 'fixed' }]],
    ]);
  });

  it('with only one of the two options given, the other keeps its defaults: no report', async () => {
    const dir = tempProject({ 'eos.js': EOS_STOP_JS });
    expect(await runCli(['lint', '--close-method', 'stop'], dir)).toEqual({ code: 0, stdout: '', stderr: 'drainguard lint: 1 file found, 1 parsed, 0 early closes.\n' });
    expect(await runCli(['lint', '--terminal-pattern', '^eos$'], dir)).toEqual({ code: 0, stdout: '', stderr: 'drainguard lint: 1 file found, 0 parsed, 0 early closes.\n' });
  });
});

describe('files named on the command line', () => {
  it('are parsed even when the pre-filter would skip them: a syntax error is reported (exit 1)', async () => {
    const dir = tempProject({ 'broken.js': UNPARSABLE_NO_CLOSE_WORDS_JS });
    const named = await runCli(['lint', '--format', 'json', 'broken.js'], dir);
    expect(named.code).toBe(1);
    // `export const = 1;`: the `=` is character 14.
    expect(parseJson(named)[0].messages).toEqual([{ ruleId: null, fatal: true, severity: 2, message: 'Parsing error: Unexpected token =', line: 1, column: 14 }]);
    const stylish = await runCli(['lint', 'broken.js'], dir);
    expect(stylish.code).toBe(1);
    expect(stylish.stderr).toBe('drainguard lint: 1 file found, 1 parsed, 0 early closes, 1 file that does not parse.\n');
    // Found by walking, the same file is not parsed.
    expect(await runCli(['lint', '.'], dir)).toEqual({ code: 0, stdout: '', stderr: 'drainguard lint: 1 file found, 0 parsed, 0 early closes.\n' });
  });
});
