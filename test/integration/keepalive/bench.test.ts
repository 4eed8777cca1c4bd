// `npm run bench:keepalive -- --json` prints exactly `{ calls, rttMs, tls, variants: [{ name, connections, p50Ms, p95Ms }] }`. Small and fast here (5
// calls, RTT 1 ms); the connection counts are asserted, the latencies only for their type.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));

async function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bench/keepalive.mjs', ...args], { cwd: root, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

type Variant = { name: string; connections: number | null; p50Ms: number | null; p95Ms: number | null };

describe('bench/keepalive.mjs', () => {
  it('--json prints { calls, rttMs, tls, variants } with the three variants', async () => {
    // The pause outlasts the tail: drainguard-fixed drains after handing the result over, so a call made sooner would need a second connection.
    const { code, stdout, stderr } = await bench(['--calls', '5', '--rtt', '1', '--tail-ms', '50', '--pause-ms', '80', '--json']);
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout) as { calls: number; rttMs: number; tls: boolean; variants: Variant[] };
    expect(Object.keys(out)).toEqual(['calls', 'rttMs', 'tls', 'variants']);
    expect(out).toMatchObject({ calls: 5, rttMs: 1, tls: false });
    expect(out.variants.map((v) => v.name)).toEqual(['early-close', 'drainguard-fixed', 'hand-drained']);
    for (const v of out.variants) expect(Object.keys(v)).toEqual(['name', 'connections', 'p50Ms', 'p95Ms']);

    const [early, fixed, drained] = out.variants;
    expect(early.connections).toBeGreaterThanOrEqual(4);
    expect(drained.connections).toBeLessThanOrEqual(2);
    // The codemod rewrites the bench's client (a transform that does not is the last test's case).
    expect(fixed.connections).not.toBeNull();
    expect(fixed.connections).toBeLessThanOrEqual(2);
    for (const v of out.variants) {
      expect(typeof v.p50Ms).toBe('number');
      expect(typeof v.p95Ms).toBe('number');
    }
  });

  it('prints a table without --json', async () => {
    const { code, stdout } = await bench(['--calls', '3', '--rtt', '0']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/variant\s+connections\s+p50 ms\s+p95 ms/);
    expect(stdout).toMatch(/^early-close\s/m);
    expect(stdout).toMatch(/^drainguard-fixed\s/m);
    expect(stdout).toMatch(/^hand-drained\s/m);
  });

  it('a transform that changes nothing makes drainguard-fixed unavailable, not a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'drainguard-placeholder-'));
    try {
      const placeholder = join(dir, 'placeholder.cjs');
      writeFileSync(placeholder, 'module.exports = function transform() { return undefined; };\n');
      const { code, stdout, stderr } = await bench(['--calls', '2', '--rtt', '0', '--json', '--codemod', placeholder]);
      expect(code, stderr).toBe(0);
      const out = JSON.parse(stdout) as { variants: Variant[] };
      expect(out.variants[1]).toEqual({ name: 'drainguard-fixed', connections: null, p50Ms: null, p95Ms: null });
      expect(typeof out.variants[0].connections).toBe('number');
      expect(typeof out.variants[2].connections).toBe('number');
      expect(stderr).toMatch(/drainguard-fixed: unavailable: the transform changed nothing in early-close\.mjs/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('usage errors exit 2', async () => {
    expect((await bench(['--calls', '0'])).code).toBe(2);
    expect((await bench(['--peer', 'python'])).code).toBe(2);
    expect((await bench(['--nope'])).code).toBe(2);
  });
});
