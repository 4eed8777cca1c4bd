// `drainguard prove --transport` on the README's chat client (examples/sse-chat-client.ts, which cancels the body at
// [DONE]): the same command without and with drainguard/undici installed by `--import`, one table.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModeRun } from '../../../cli/prove/run.js';
import { ROOT, runCli, tempProject } from '../../cli/helpers.js';

const CALLS_SCRIPT = path.join(ROOT, 'docs/examples/prove/chat-calls.mjs');
const CHAT_EVENTS = path.join(ROOT, 'docs/examples/prove/chat-completions.json');
const command = ['--', process.execPath, CALLS_SCRIPT, path.join(ROOT, 'examples/sse-chat-client.ts'), 'streamChat'];

describe('drainguard prove --transport', () => {
  it('prints a row per body without and with the transport; with it, the early-cancelling client reuses its connections', async () => {
    const dir = tempProject();
    // The server ends each body 100 ms after [DONE], so the cancel lands before the end on a busy machine too.
    const text = await runCli(['prove', '--transport', '--calls', '10', '--modes', 'end,silent', '--tail-delay-ms', '100', '--script', CHAT_EVENTS, ...command], dir);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([`drainguard prove: ${command.slice(1).join(' ')}`, '10 calls per run against sse bodies, each without and with drainguard/undici (node --import)', '']);
    expect(lines[3].split(/ {2,}/)).toEqual(['after the terminal event', 'drainguard/undici', 'requests', 'connections', 'closed early', 'most sent after it', 'slowest return', 'exit']);
    const rows = lines.slice(4, 8).map((line) => line.split(/ {2,}/));
    expect(rows.map((row) => [row[0], row[1], row[2], row.at(-1)])).toEqual([
      ['body ends 100 ms later', 'without', '10', '0'],
      ['body ends 100 ms later', 'with', '10', '0'],
      ['held open, silent', 'without', '10', '0'],
      ['held open, silent', 'with', '10', '0'],
    ]);
    const [without, withTransport] = rows.map((row) => ({ connections: Number(row[3]), closedEarly: Number(row[4]) }));
    expect(without.closedEarly).toBeGreaterThanOrEqual(5);
    expect(withTransport.closedEarly).toBe(0);
    expect(withTransport.connections).toBeLessThan(without.connections);
    // Bodies that never end are still closed, by the drain's bound.
    expect(Number(rows[3][4])).toBe(10);
    expect(lines.slice(8, 10)).toEqual([
      '',
      'slowest return: the longest time from a terminal event to the next request (to the exit for a single call); most sent after it: the most bytes the server sent on one response after its terminal event, the client\'s and the kernel\'s buffers included; connections and closed early are counted by the server.',
    ]);
  });

  it('--json marks the runs that had it', async () => {
    const run = await runCli(['prove', '--transport', '--json', '--calls', '3', '--modes', 'end', '--tail-delay-ms', '100', '--script', CHAT_EVENTS, ...command], tempProject());
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { transport: boolean; runs: ModeRun[] };
    expect(report.transport).toBe(true);
    expect(report.runs.map((r) => [r.mode, r.transport ?? false, r.requests, r.exitCode])).toEqual([
      ['end', false, 3, 0],
      ['end', true, 3, 0],
    ]);
    expect(report.runs[1].closedEarly).toBe(0);
  });
});
