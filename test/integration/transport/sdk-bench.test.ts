// `npm run bench:transport` on a small scale: the unmodified SDKs (openai, @anthropic-ai/sdk, the MCP TypeScript
// SDK; the first two installed from npm into a cache folder outside the repository) without and with
// drainguard/undici. Counts and results are asserted, latency is not.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Run {
  sdk: string;
  mode: string;
  transport: boolean;
  connections: number;
  requests: number;
  closedEarly: number;
  p50Ms: number | null;
  calls: number;
  hung: boolean;
  error: string | null;
  sameResults: boolean;
}

async function bench(args: string[]): Promise<{ calls: number; rttMs: number; node: string; runs: Run[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bench/transport.mjs'), '--json', ...args], { cwd: ROOT, timeout: 600_000 });
  return JSON.parse(stdout) as { calls: number; rttMs: number; node: string; runs: Run[] };
}

describe('bench:transport', () => {
  it('the SDKs that close early at the terminal event keep their connections with the transport, and return the same results', { timeout: 600_000 }, async () => {
    const report = await bench(['--calls', '10', '--rtt', '0', '--sdks', 'openai,anthropic-break,mcp-per-call', '--modes', 'end']);
    expect(report).toMatchObject({ calls: 10, rttMs: 0, node: process.version });
    expect(report.runs.map((run) => [run.sdk, run.mode, run.transport, run.calls, run.hung, run.error, run.sameResults])).toEqual(
      ['openai', 'anthropic-break', 'mcp-per-call'].flatMap((sdk) => [
        [sdk, 'end', false, 10, false, null, true],
        [sdk, 'end', true, 10, false, null, true],
      ]),
    );
    for (let i = 0; i < report.runs.length; i += 2) {
      const [without, withTransport] = [report.runs[i], report.runs[i + 1]];
      expect(without.closedEarly, without.sdk).toBeGreaterThan(0);
      expect(withTransport.closedEarly, withTransport.sdk).toBe(0);
      expect(withTransport.connections, withTransport.sdk).toBeLessThan(without.connections);
    }
  });

  it('hostile bodies: a call returns as before with the transport (none hangs that did not), the held body is closed at the bound', { timeout: 600_000 }, async () => {
    const report = await bench(['--calls', '3', '--rtt', '0', '--sdks', 'openai', '--modes', 'silent,flood,reset']);
    expect(report.runs.map((run) => [run.mode, run.transport, run.calls, run.hung, run.error, run.sameResults])).toEqual(
      ['silent', 'flood', 'reset'].flatMap((mode) => [
        [mode, false, 3, false, null, true],
        [mode, true, 3, false, null, true],
      ]),
    );
    const silent = report.runs.filter((run) => run.mode === 'silent');
    expect(silent.map((run) => run.closedEarly)).toEqual([3, 3]);
  });
});
