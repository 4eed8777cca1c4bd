import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, tempProject } from '../../cli/helpers.js';
import { EARLY_CANCEL_JS } from '../../cli/sources.js';

/** Runs the CLI with its stdout read by a process that exits after the first line, as `| head -n 1` does. */
function runIntoHead(args: string[], cwd: string): Promise<{ code: number | null; stderr: string; firstLine: string }> {
  return new Promise((resolve, reject) => {
    const cli = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let firstLine = '';
    cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    cli.stdout.once('data', (chunk: Buffer) => {
      firstLine = chunk.toString().split('\n')[0] ?? '';
      cli.stdout.destroy();
    });
    cli.on('error', reject);
    cli.on('close', (code) => resolve({ code, stderr, firstLine }));
  });
}

describe('a closed output pipe', () => {
  it('ends fix --dry --print quietly with exit 141 when the reader stops after the first line', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`stream-${i}.js`] = EARLY_CANCEL_JS;
    const dir = tempProject(files);
    const run = await runIntoHead(['fix', '--dry', '--print', '.'], dir);
    expect(run.firstLine).toMatch(/^(--- |diff |Index: )/);
    expect(run.stderr).not.toContain('EPIPE');
    expect(run.stderr).not.toContain('    at ');
    expect(run.code).toBe(141);
  });
});
