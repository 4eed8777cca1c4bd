import { describe, expect, it } from 'vitest';
import { DRAINED_JS, EARLY_CANCEL_JS, NO_CLOSE_WORDS_JS } from '../../../cli/sources.js';
import { runCli, tempProject } from '../../../cli/helpers.js';

describe('drainguard lint exit codes', () => {
  it('exits 0 with nothing on stdout and only the summary on stderr when nothing is reported', async () => {
    const dir = tempProject({ 'drained.js': DRAINED_JS, 'math.js': NO_CLOSE_WORDS_JS });
    const run = await runCli(['lint'], dir);
    expect(run).toEqual({ code: 0, stdout: '', stderr: 'drainguard lint: 2 files found, 1 parsed, 0 early closes.\n' });
  });

  it('exits 1 when a close is reported', async () => {
    const dir = tempProject({ 'drained.js': DRAINED_JS, 'stream.js': EARLY_CANCEL_JS });
    const run = await runCli(['lint'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('drainguard lint: 2 files found, 2 parsed, 1 early close.\nnext: drainguard fix rewrites them where you maintain the code; for an SDK you only call, drainguard/undici (Node) and drainguard-httpx (Python) keep its connections with no source change\n');
  });

  it('exits 0 on an empty directory', async () => {
    const dir = tempProject({ 'README.md': '# nothing to lint\n' });
    const run = await runCli(['lint', '.'], dir);
    expect(run.code).toBe(0);
  });

  it('honours inline eslint-disable comments for the rule and ignores other rules named in comments', async () => {
    const disabled = EARLY_CANCEL_JS.replace(
      'await reader.cancel();',
      'await reader.cancel(); // eslint-disable-line drainguard/no-early-stream-close',
    );
    const foreign = `/* eslint some-plugin/some-rule: "error" */\n// eslint-disable-next-line @typescript-eslint/no-explicit-any\n${DRAINED_JS}`;
    const dir = tempProject({ 'disabled.js': disabled, 'foreign.js': foreign });
    const run = await runCli(['lint', '--format', 'json'], dir);
    expect(run.code).toBe(0);
    for (const result of JSON.parse(run.stdout) as { messages: unknown[] }[]) expect(result.messages).toEqual([]);
  });
});
