// `drainguard prove --transport`, its parts in process: the flag, the NODE_OPTIONS it hands the command, and the
// table with a column saying which run had drainguard/undici. The real runs: test/integration/transport/.
import { describe, expect, it } from 'vitest';
import { parseProveArgs } from '../../../cli/prove/args.js';
import { jsonReport, markdownReport, textReport, type ProveReport } from '../../../cli/prove/report.js';
import { withImport, type ModeRun } from '../../../cli/prove/run.js';

const run = (mode: ModeRun['mode'], transport: boolean, connections: number, closedEarly: number): ModeRun => ({
  mode,
  ...(transport ? { transport: true } : {}),
  requests: 10,
  connections,
  closedEarly,
  retries: 0,
  slowestReturnMs: 12.4,
  returnMeasuredTo: 'next call',
  mostBytesAfterTerminal: transport ? 28 : 4_063_232,
  exitCode: 0,
  signal: null,
  timedOut: false,
  errorLine: '',
});

const report: ProveReport = {
  command: ['node', 'calls.mjs'],
  calls: 10,
  timeoutMs: 20000,
  server: {},
  transport: true,
  runs: [run('end', false, 11, 10), run('end', true, 1, 0), run('silent', false, 11, 10), { ...run('silent', true, 20, 10), exitCode: 1, errorLine: 'Error: boom' }],
};

describe('prove --transport', () => {
  it('is a flag of its own, off by default', () => {
    const parsed = parseProveArgs(['--transport', '--', 'node', 'calls.mjs'], '/');
    expect(parsed.ok && parsed.args.transport).toBe(true);
    const plain = parseProveArgs(['--', 'node', 'calls.mjs'], '/');
    expect(plain.ok && plain.args.transport).toBe(false);
  });

  it('adds --import to the NODE_OPTIONS the command inherits', () => {
    expect(withImport(undefined, 'file:///opt/dg/dist/undici-register.js')).toBe('--import=file:///opt/dg/dist/undici-register.js');
    expect(withImport('  --max-old-space-size=512 ', 'file:///a%20b/undici-register.js')).toBe('--max-old-space-size=512 --import=file:///a%20b/undici-register.js');
  });

  it('a text table with a drainguard/undici column, a row per body and run', () => {
    expect(textReport(report)).toBe(
      [
        'drainguard prove: node calls.mjs',
        '10 calls per run against sse bodies, each without and with drainguard/undici (node --import)',
        '',
        'after the terminal event  drainguard/undici  requests  connections  closed early  most sent after it  slowest return  exit',
        'body ends 20 ms later     without            10        11           10            3.9 MiB             12 ms           0',
        'body ends 20 ms later     with               10        1            0             28 B                12 ms           0',
        'held open, silent         without            10        11           10            3.9 MiB             12 ms           0',
        'held open, silent         with               10        20           10            28 B                12 ms           1',
        '',
        'slowest return: the longest time from a terminal event to the next request (to the exit for a single call); most sent after it: the most bytes the server sent on one response after its terminal event, the client\'s and the kernel\'s buffers included; connections and closed early are counted by the server.',
        '',
        'failed runs:',
        '  held open, silent, with drainguard/undici: exit 1: Error: boom',
        '',
      ].join('\n'),
    );
  });

  it('Markdown and JSON say it too', () => {
    expect(markdownReport(report).split('\n').slice(0, 6)).toEqual([
      '**drainguard prove** `node calls.mjs`: 10 calls per run against sse bodies, each without and with drainguard/undici (node --import)',
      '',
      '| after the terminal event | drainguard/undici | requests | connections | closed early | most sent after it | slowest return | exit |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
      '| body ends 20 ms later | without | 10 | 11 | 10 | 3.9 MiB | 12 ms | 0 |',
      '| body ends 20 ms later | with | 10 | 1 | 0 | 28 B | 12 ms | 0 |',
    ]);
    const json = JSON.parse(jsonReport(report)) as { transport: boolean; runs: ModeRun[] };
    expect(json.transport).toBe(true);
    expect(json.runs.map((r) => [r.mode, r.transport ?? false, r.connections])).toEqual([
      ['end', false, 11],
      ['end', true, 1],
      ['silent', false, 11],
      ['silent', true, 20],
    ]);
  });

  it('without the flag the table and the JSON are as before', () => {
    const { transport, ...plain } = report;
    const before = { ...plain, runs: [run('end', false, 11, 10)] };
    expect(textReport(before).split('\n')[3]).toBe('after the terminal event  requests  connections  closed early  most sent after it  slowest return  exit');
    expect(Object.keys(JSON.parse(jsonReport(before)) as object)).toEqual(['command', 'calls', 'format', 'timeoutMs', 'runs']);
    expect(transport).toBe(true);
  });
});
