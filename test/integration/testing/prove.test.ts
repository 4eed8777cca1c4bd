// `drainguard prove` on the README's chat client (examples/sse-chat-client.ts) through a maintainer's
// whole flow in a git repository: lint, prove (the early close), fix (--print ends with a pointer to
// prove), prove again. Counts, structure and exit codes are asserted; the timings it shows are not.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVE_POINTER } from '../../../cli/fix/report.js';
import type { ModeRun } from '../../../cli/prove/run.js';
import { CLI, ROOT, runCli, tempProject } from '../../cli/helpers.js';

/** Whether a process is alive: not gone, and not a zombie waiting for a parent to reap it (Linux's /proc). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const CALLS_SCRIPT = path.join(ROOT, 'docs/examples/prove/chat-calls.mjs');
const CHAT_EVENTS = path.join(ROOT, 'docs/examples/prove/chat-completions.json');
const chatCommand = (client: string, fn: string) => ['--', process.execPath, CALLS_SCRIPT, client, fn];

interface ProveJson {
  command: string[];
  calls: number;
  format: string;
  timeoutMs: number;
  runs: ModeRun[];
}
const parseProve = (stdout: string): ProveJson => JSON.parse(stdout) as ProveJson;

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

describe("a maintainer's flow on the README's chat client: lint, prove, fix, prove", () => {
  it('shows a connection per call and abandoned bodies before the fix, none after it, and prompt returns from every hostile body', async () => {
    const repo = tempProject({ 'src/chat.ts': readFileSync(path.join(ROOT, 'examples/sse-chat-client.ts'), 'utf8') });
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-qm', 'chat client']]) execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV } });

    const lint = await runCli(['lint', 'src', '--format', 'json'], repo);
    expect(lint.code).toBe(1);
    expect((JSON.parse(lint.stdout) as { messages: { line: number }[] }[])[0].messages.map((m) => m.line)).toEqual([30]);

    // The server ends each body 50 ms after [DONE], so the early close lands before the end on a busy machine too.
    const before = await runCli(['prove', '--calls', '10', '--tail-delay-ms', '50', '--json', '--script', CHAT_EVENTS, ...chatCommand('src/chat.ts', 'streamChat')], repo);
    expect(before.code, before.stderr).toBe(0);
    const original = parseProve(before.stdout).runs;
    const [early] = original;
    expect(early).toMatchObject({ mode: 'end', requests: 10, retries: 0, exitCode: 0, timedOut: false });
    expect(early.connections).toBeGreaterThanOrEqual(8);
    expect(early.closedEarly).toBeGreaterThanOrEqual(5);

    const printed = await runCli(['fix', '--dry', '--print'], repo, { NO_COLOR: '1' });
    expect(printed.code).toBe(0);
    expect(printed.stdout.startsWith('--- /dev/null\n+++ b/src/drain-body.ts\n')).toBe(true);
    expect(printed.stdout).toContain('\n--- a/src/chat.ts\n+++ b/src/chat.ts\n');
    expect(printed.stdout).not.toContain('prove');
    expect(printed.stderr.endsWith(`1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors (dry run: nothing written)\n${PROVE_POINTER}`)).toBe(true);
    expect(PROVE_POINTER).toBe(
      'next: drainguard prove -- <a command that makes your calls to $DRAINGUARD_URL> shows the connections they open and how they return from hostile bodies (drainguard prove --help)\n',
    );

    expect((await runCli(['fix', 'src'], repo)).code).toBe(0);

    const after = await runCli(['prove', '--calls', '10', '--tail-delay-ms', '50', '--json', '--script', CHAT_EVENTS, ...chatCommand('src/chat.ts', 'streamChat')], repo);
    expect(after.code, after.stdout).toBe(0);
    const report = parseProve(after.stdout);
    expect(report).toMatchObject({ command: [process.execPath, CALLS_SCRIPT, 'src/chat.ts', 'streamChat'], calls: 10, format: 'sse', timeoutMs: 20000 });
    expect(report.runs.map((run) => [run.mode, run.requests, run.retries, run.exitCode, run.timedOut])).toEqual(
      ['end', 'silent', 'trickle', 'flood', 'endless', 'reset'].map((mode) => [mode, 10, 0, 0, false]),
    );
    const hostile = report.runs.slice(1);
    // Never worse than the original under any body, with this back-to-back command: the rewrite hands the result over
    // at [DONE] and drains after it, and a drain still waiting when the next stream ends is given up then (as the
    // original closed it), so each call opens at most what the original's did, plus the one connection the second
    // call takes while the first body is still held. Reuse itself is asserted with paced calls (expectConnectionReuse,
    // test/testing) and by the behaviour tests.
    for (const [index, run] of report.runs.entries()) {
      // One more at most, and one for the spare connection undici may or may not open after a close (either run, by timing).
      expect(run.connections, run.mode).toBeLessThanOrEqual(original[index].connections + 2);
      expect(run.closedEarly, run.mode).toBeLessThanOrEqual(original[index].closedEarly);
    }
    // The drain's bounds close every body that does not end.
    for (const run of hostile.slice(0, 4)) expect(run.closedEarly, run.mode).toBe(10);
    for (const run of report.runs) expect(run.returnMeasuredTo).toBe('next call');
    // The byte limit holds on the wire: far less than the 64 MiB a flood offers is sent after [DONE] (the limit plus
    // what the connection's buffers take); a drain bounded by time only takes the whole flood (next test).
    for (const run of report.runs.filter((run) => run.mode === 'flood' || run.mode === 'endless')) expect(run.mostBytesAfterTerminal, run.mode).toBeLessThan(16 * 1024 * 1024);
  });

  it('shows a drain bounded by time only reading a whole flood', async () => {
    // Reads to [DONE], then on for up to a second, with no byte limit.
    const timeOnly = `
      for (let i = 0; i < Number(process.env.DRAINGUARD_CALLS); i++) {
        const reader = (await fetch(process.env.DRAINGUARD_URL)).body.getReader();
        let text = '';
        while (!text.includes('[DONE]')) text += new TextDecoder().decode((await reader.read()).value);
        const until = Date.now() + 1000;
        let timer;
        const late = new Promise((resolve) => (timer = setTimeout(resolve, 1000, { done: true })));
        while (Date.now() < until && !(await Promise.race([reader.read(), late])).done);
        clearTimeout(timer);
        await reader.cancel();
      }`;
    const run = await runCli(['prove', '--calls', '2', '--modes', 'flood', '--json', '--', process.execPath, '--input-type=module', '-e', timeOnly], tempProject());
    expect(run.code, run.stdout).toBe(0);
    const [flood] = parseProve(run.stdout).runs;
    expect(flood.mostBytesAfterTerminal).toBeGreaterThanOrEqual(64 * 1024 * 1024);
  });
});

describe('drainguard prove output', () => {
  it('a text table and a Markdown table, one row per body', async () => {
    const dir = tempProject();
    const args = ['prove', '--calls', '2', '--modes', 'end,reset', '--script', CHAT_EVENTS, ...chatCommand(path.join(ROOT, 'examples/drained-client.ts'), 'streamChatDrained')];
    const text = await runCli(args, dir);
    const lines = text.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([`drainguard prove: ${process.execPath} ${CALLS_SCRIPT} ${path.join(ROOT, 'examples/drained-client.ts')} streamChatDrained`, '2 calls per run against sse bodies', '']);
    expect(lines[3].split(/ {2,}/)).toEqual(['after the terminal event', 'requests', 'connections', 'closed early', 'most sent after it', 'slowest return', 'exit']);
    expect(lines[4]).toMatch(/^body ends 20 ms later {2,}2 {2,}[12] {2,}0 {2,}28 B {2,}\d+ ms {2,}0$/);
    expect(lines[5]).toMatch(/^connection reset 20 ms later {2,}\d/);
    expect(lines.slice(6, 8)).toEqual([
      '',
      'slowest return: the longest time from a terminal event to the next request (to the exit for a single call); most sent after it: the most bytes the server sent on one response after its terminal event, the client\'s and the kernel\'s buffers included; connections and closed early are counted by the server.',
    ]);

    const markdown = await runCli([...args.slice(0, 1), '--markdown', ...args.slice(1)], dir);
    const md = markdown.stdout.split('\n');
    expect(md.slice(0, 4)).toEqual([
      `**drainguard prove** \`${process.execPath} ${CALLS_SCRIPT} ${path.join(ROOT, 'examples/drained-client.ts')} streamChatDrained\`: 2 calls per run against sse bodies`,
      '',
      '| after the terminal event | requests | connections | closed early | most sent after it | slowest return | exit |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ]);
    expect(md[4]).toMatch(/^\| body ends 20 ms later \| 2 \| [12] \| 0 \| 28 B \| \d+ ms \| 0 \|$/);
    expect(md[5]).toMatch(/^\| connection reset 20 ms later \| \d+ \| \d+ \| \d+ \| 0 B \| .+ \| \d+ \|$/);
    expect(md[7]).toBe(
      '<sub>slowest return: the longest time from a terminal event to the next request (to the exit for a single call); most sent after it: the most bytes the server sent on one response after its terminal event, the client\'s and the kernel\'s buffers included; connections and closed early are counted by the server.</sub>',
    );
  });

  it('a failed run: exit 1, with the error line from stderr (Node and Python)', async () => {
    const dir = tempProject();
    const node = await runCli(['prove', '--modes', 'end', '--', process.execPath, '-e', "throw new TypeError('terminated')"], dir);
    expect(node.code).toBe(1);
    expect(node.stdout).toMatch(/\nbody ends 20 ms later {2,}0 {2,}0 {2,}0 {2,}- {2,}- {2,}1\n/);
    expect(node.stdout.endsWith('\nfailed runs:\n  body ends 20 ms later: exit 1: TypeError: terminated\n')).toBe(true);
    const python = await runCli(['prove', '--modes', 'end', '--markdown', '--', '/usr/bin/python3', '-c', "raise ValueError('no [DONE]')"], dir);
    expect(python.code).toBe(1);
    expect(python.stdout.endsWith('\n- body ends 20 ms later: exit 1: ValueError: no [DONE]\n')).toBe(true);
  });

  it('a command still running at --timeout-ms is killed with what it started, and shown as hung', async () => {
    const run = await runCli(['prove', '--modes', 'silent', '--timeout-ms', '300', '--json', '--', 'sh', '-c', 'sleep 60 & wait'], tempProject());
    expect(run.code).toBe(1);
    expect(parseProve(run.stdout).runs).toEqual([
      {
        mode: 'silent',
        requests: 0,
        connections: 0,
        closedEarly: 0,
        retries: 0,
        slowestReturnMs: null,
        returnMeasuredTo: 'exit',
        mostBytesAfterTerminal: null,
        exitCode: null,
        signal: 'SIGKILL',
        timedOut: true,
        errorLine: '',
      },
    ]);
  });

  it('Ctrl-C (SIGINT) ends prove with 130 and the command with everything it started', async () => {
    const dir = tempProject();
    const prove = spawn(process.execPath, [CLI, 'prove', '--modes', 'silent', '--', 'sh', '-c', 'sleep 60 & echo $! > sleeper.pid; wait'], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => prove.on('close', resolve));
    const pidFile = path.join(dir, 'sleeper.pid');
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), { timeout: 10_000 }).toBe(true);
    const sleeper = Number(readFileSync(pidFile, 'utf8'));
    prove.kill('SIGINT');
    expect(await exited).toBe(130);
    await expect.poll(() => isRunning(sleeper)).toBe(false);
  });

  it('hands the command its environment: the URL, the number of calls, the mode and the stats URL', async () => {
    const dir = tempProject({
      'env.mjs':
        "const { DRAINGUARD_URL: url, DRAINGUARD_CALLS: calls, DRAINGUARD_MODE: mode, DRAINGUARD_STATS_URL: stats } = process.env;\n" +
        'for (let i = 0; i < Number(calls); i++) await (await fetch(`${url}/${mode}`)).text();\n' +
        'const counts = await (await fetch(stats)).json();\n' +
        "if (stats !== `${url}/__drainguard/stats` || counts.requests !== Number(calls)) throw new Error(JSON.stringify({ url, stats, counts }));\n",
    });
    const run = await runCli(['prove', '--calls', '3', '--modes', 'end', '--json', '--', process.execPath, 'env.mjs'], dir);
    expect(run.code, run.stdout).toBe(0);
    const [end] = parseProve(run.stdout).runs;
    expect(end).toMatchObject({ requests: 3, closedEarly: 0, exitCode: 0 });
    expect(end.connections).toBeLessThanOrEqual(2);
  });
});

describe('drainguard prove usage errors: a one-line message, exit 2', () => {
  const HINT = "\nRun 'drainguard prove --help' for usage.\n";
  it.each([
    [[], "no command to run: give it after '--' (drainguard prove -- node my-calls.mjs)."],
    [['node', 'calls.mjs'], "unexpected argument 'node': put the command after '--'"],
    [['--calls', '0', '--', 'true'], "--calls takes a whole number from 1 to 10000, got '0'."],
    [['--modes', 'end,hang', '--', 'true'], "--modes takes a comma-separated list of end, silent, trickle, flood, endless, reset, got 'end,hang'."],
    [['--mode', 'silent', '--', 'true'], "unknown option '--mode' (did you mean --modes?)"],
    [['--markdown', '--json', '--', 'true'], '--markdown and --json contradict each other.'],
    [['--script', 'moded.json', '--', 'true'], "prove runs the command once per mode: choose them with --modes, not the script's 'mode'."],
  ])('%j', async (args, message) => {
    const run = await runCli(['prove', ...args], tempProject({ 'moded.json': '{"mode":"silent"}' }));
    expect(run).toEqual({ code: 2, stdout: '', stderr: `drainguard prove: ${message}${HINT}` });
  });

  it('a command that cannot be started', async () => {
    const run = await runCli(['prove', '--', 'no-such-command-drainguard'], tempProject());
    expect(run).toEqual({ code: 2, stdout: '', stderr: "drainguard prove: cannot run 'no-such-command-drainguard': command not found\n" });
  });
});
