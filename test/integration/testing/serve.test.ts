// `drainguard serve` (the built CLI) as a test in another language uses it: the URL on the first line
// of stdout, calls with real clients, the counts as JSON over HTTP, SIGTERM to stop; and bad input.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, tempProject } from '../../cli/helpers.js';

interface Served {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the exit code and all of stderr once the server exits. */
  exited: Promise<{ code: number | null; stderr: string }>;
}

const running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function serve(args: string[], cwd?: string): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd, stdio: 'pipe' });
  running.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve({ url: stdout.slice(0, stdout.indexOf('\n')), child, exited });
    });
    child.on('close', () => reject(new Error(`drainguard serve exited before printing its URL: ${stderr}`)));
  });
}

const stats = async (url: string): Promise<unknown> => (await fetch(`${url}/__drainguard/stats`)).json();

describe('drainguard serve', () => {
  it('with no flags: its URL first, an SSE body with [DONE] for any request, the counts at /__drainguard/stats, SIGTERM stops it', async () => {
    const { url, child, exited } = await serve([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: '{"stream":true}' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(
      'data: {"index":0,"text":"event 0"}\n\ndata: {"index":1,"text":"event 1"}\n\ndata: {"index":2,"text":"event 2"}\n\ndata: [DONE]\n\n: end of stream\n\n',
    );
    expect(await stats(url)).toEqual({ connections: 1, requests: 1, closedEarly: 0, finished: 1 });
    child.kill('SIGTERM');
    expect(await exited).toEqual({
      code: 0,
      stderr:
        `drainguard serve: sse bodies, 'end' after the terminal event; counts at ${url}/__drainguard/stats\n` +
        `drainguard serve: stopped (SIGTERM): {"connections":1,"requests":1,"closedEarly":0,"finished":1}\n`,
    });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('exits 0 on %s sent the moment its URL is read, 6 times in a row (a fixture that stops it at once; before, 5 runs in 10 ended by the signal)', async (signal) => {
    for (let i = 0; i < 6; i++) {
      const child = spawn(process.execPath, [CLI, 'serve'], { stdio: 'pipe' });
      running.push(child);
      const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
        child.stdout.once('data', () => child.kill(signal));
        child.on('close', (code, bySignal) => resolve({ code, signal: bySignal }));
      });
      expect(ended, `run ${i + 1}`).toEqual({ code: 0, signal: null });
    }
  });

  it('exits 0 when stopped while a body is held open, and on a second signal while it stops, 4 times in a row', async () => {
    // The second signal can come as the process ends: it ended by that signal in 6 of 120 runs under load, before serve
    // exited with its handlers in place.
    for (let i = 0; i < 4; i++) {
      const { url, child, exited } = await serve(['--mode', 'silent']);
      const reader = (await fetch(url)).body!.getReader();
      await reader.read();
      child.kill('SIGTERM');
      child.kill('SIGINT');
      const { code, stderr } = await exited;
      expect(code, `run ${i + 1}`).toBe(0);
      // Both signals may be pending when the process looks: either is the one it stopped on.
      expect(stderr.split('\n').at(-2)).toMatch(/^drainguard serve: stopped \((SIGTERM|SIGINT)\): \{"connections":1,"requests":1,"closedEarly":0,"finished":0\}$/);
      await reader.cancel().catch(() => {});
    }
  });

  it('takes the mode and body from flags: a trickling NDJSON stream', async () => {
    const { url } = await serve(['--mode', 'trickle', '--format', 'ndjson', '--events', '1', '--trickle-interval-ms', '5']);
    const reader = (await fetch(url)).body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('{"type":"done"}\n\n\n\n')) text += decoder.decode((await reader.read()).value, { stream: true });
    expect(text.startsWith('{"type":"delta","index":0,"text":"event 0"}\n{"type":"done"}\n\n\n\n')).toBe(true);
    await reader.cancel();
    await expect.poll(() => stats(url)).toMatchObject({ requests: 1, closedEarly: 1, finished: 0 });
  });

  it('takes a JSON script file; flags win over it', async () => {
    const dir = tempProject({
      'anthropic.json': JSON.stringify({ mode: 'silent', events: [{ type: 'content_block_delta', delta: { text: 'Hi' } }], terminal: { type: 'message_stop' }, tail: '' }),
    });
    const { url } = await serve(['--script', 'anthropic.json', '--mode', 'end', '--tail-delay-ms', '0'], dir);
    expect(await (await fetch(url)).text()).toBe('data: {"type":"content_block_delta","delta":{"text":"Hi"}}\n\ndata: {"type":"message_stop"}\n\n');
  });

  it('a port in use: exit 1, saying so', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const run = await runCli(['serve', '--port', String(port)], tempProject());
      expect(run).toEqual({ code: 1, stdout: '', stderr: `drainguard serve: cannot listen on 127.0.0.1:${port}: EADDRINUSE\n` });
    } finally {
      taken.close();
    }
  });

  const USAGE_HINT = "\nRun 'drainguard serve --help' for usage.\n";
  it.each([
    [['--mode', 'hang'], '--mode must be one of end, silent, trickle, flood, endless, reset, got "hang".'],
    [['--events', 'three'], "--events takes a whole number, got 'three'."],
    [['--port', '70000'], '--port must be a port number from 0 to 65535, got 70000.'],
    [['--trickle-interval-ms', '0'], '--trickle-interval-ms must be a whole number of milliseconds from 1 to 2147483647, got 0.'],
    [['--fromat', 'sse'], "unknown option '--fromat' (did you mean --format?)"],
    [['extra'], "serve takes no paths or commands, got 'extra'"],
    [['--script', 'missing.json'], 'cannot read --script missing.json: no such file.'],
    [['--script', 'broken.json'], `--script broken.json is not JSON: Expected property name or '}' in JSON at position 1.`],
    [['--script', 'wrong.json'], `--script wrong.json: unknown option 'modes' (known: mode, format, events, terminal, tail, tailDelayMs, eventDelayMs, trickleIntervalMs, floodBytes, holdMaxMs, keepAliveTimeoutMs, port).`],
    [['--script', 'list.json'], '--script list.json: the options must be an object.'],
  ])('bad input %j: a one-line message and exit 2', async (args, message) => {
    const dir = tempProject({ 'broken.json': '{mode: "end"}', 'wrong.json': '{"modes": ["end"]}', 'list.json': '[]' });
    expect(await runCli(['serve', ...args], dir)).toEqual({ code: 2, stdout: '', stderr: `drainguard serve: ${message}${USAGE_HINT}` });
  });

  it('--help prints the usage, with the stats endpoint', async () => {
    const run = await runCli(['serve', '--help'], tempProject());
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('Usage: drainguard serve [--mode end|silent|trickle|flood|endless|reset] [--format sse|ndjson|jsonrpc]');
    expect(run.stdout).toContain('GET <url>/__drainguard/stats');
  });
});
