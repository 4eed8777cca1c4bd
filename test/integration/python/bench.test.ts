// `npm run bench:keepalive -- --client python --json`: connection counts (deterministic), not latency.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pythonHttpxMissing } from '../../support/python-keepalive.mjs';

const BENCH = fileURLToPath(new URL('../../../bench/keepalive.mjs', import.meta.url));
const missing = pythonHttpxMissing();

function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BENCH, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(missing !== null)('bench:keepalive --client python', () => {
  it('early-close opens one connection per call; the drainguard rewrite and the hand-drained client one in all, with the same messages', async () => {
    const run = await bench(['--client', 'python', '--calls', '8', '--rtt', '0', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { variants: { name: string; connections: number }[] };
    expect(report).toMatchObject({ calls: 8, rttMs: 0, tls: false, client: 'python' });
    expect(report.variants.map((variant) => [variant.name, variant.connections])).toEqual([
      ['early-close', 8],
      ['drainguard-fixed', 1],
      ['hand-drained', 1],
    ]);
  });

  it('refuses --client python with the MCP peer or TLS (usage error, exit 2)', async () => {
    const run = await bench(['--client', 'python', '--peer', 'mcp']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--client python runs against the node peer without TLS');
  });
});
