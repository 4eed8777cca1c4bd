// Real Python clients (httpx) against real Node servers on 127.0.0.1 that count connections: each early
// close drainguard rewrites, before and after, against a body that ends, bodies held open after the terminal
// event, and bodies that flood it (events, SSE comments, one endless line). The connection counts come from
// the server, the bytes a call read from the client's own network stream (test/support/python-harness.py);
// no latency is asserted (the time limits are hang guards, far from what they guard against).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { rewritePython } from '../../../codemods/python/rewrite.js';
import { startHostileServer, type HostileMode, type HostileServer } from '../../support/python-hostile-server.mjs';
import { modernPython, pythonHttpxMissing, pythonTrioMissing, runPythonPlan } from '../../support/python-keepalive.mjs';
import { expectedMessages } from '../../support/sse-server.mjs';

const missing = pythonHttpxMissing();
const trioMissing = missing ?? pythonTrioMissing();
const modern = modernPython();
if (missing) console.log(`skipping the Python behaviour tests: ${missing}`);
else if (trioMissing) console.log(`skipping the trio runs: ${trioMissing}`);
if ('missing' in modern) console.log(`skipping the runs on httpcore 1.x: ${modern.missing}`);

const CALLS = 20;
const HELD_CALLS = 3;
const EVENTS = expectedMessages(2, 'sse');
/** The byte limit of the flood runs, and what httpcore reads at most at once (one chunk). */
const LIMIT = 64 * 1024;
const CHUNK = 64 * 1024;
const work = mkdtempSync(path.join(tmpdir(), 'drainguard-python-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const clientPath = (file: string): string => fileURLToPath(new URL(`../../support/python-clients/${file}`, import.meta.url));

/** The client rewritten by drainguard, in a directory of its own. */
async function rewritten(file: string, options: { drainTimeoutMs?: number; drainMaxBytes?: number; drainWaitMs?: number } = {}): Promise<string> {
  const dir = path.join(work, `${path.basename(file, '.py')}-${options.drainTimeoutMs ?? 'd'}-${options.drainMaxBytes ?? 'd'}-${options.drainWaitMs ?? 'd'}`);
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, file);
  const result = await rewritePython(readFileSync(clientPath(file), 'utf8'), { filePath: out, ...options });
  expect(result.sites.map((site) => site.status)).toEqual(result.sites.map(() => 'fixed'));
  expect(result.sites.length).toBeGreaterThan(0);
  expect(result.output).toContain('stream.read = bounded_read');
  writeFileSync(out, result.output!);
  return out;
}

interface Shape {
  name: string;
  file: string;
  /** The async backend that runs it (sync clients ignore it). */
  backend: string;
  /** Connections the client's pool may hold (default 1): a client that never closes a response needs more to run on. */
  pool?: number;
}

const SHAPES: Shape[] = [
  { name: 'an SSE reader iterated directly, closed after the reply (MCP main)', file: 'sse_reader_direct.py', backend: 'anyio-asyncio' },
  { name: 'client.sse(), the reader iterated directly, break (MCP main, resumption)', file: 'sse_reader_resumption.py', backend: 'anyio-asyncio' },
  { name: 'aconnect_sse and aiter_sse(), break (MCP v1.x)', file: 'aconnect_sse_aiter.py', backend: 'anyio-asyncio' },
  { name: 'aclose() and return inside async with, reconnect on errors', file: 'anyio_aclose_reconnect.py', backend: 'anyio-asyncio' },
  { name: 'break out of async with client.stream() (asyncio)', file: 'asyncio_break.py', backend: 'asyncio' },
  { name: 'an async generator breaks at [DONE], its finally closes (openai AsyncStream)', file: 'async_generator_finally.py', backend: 'anyio-asyncio' },
  { name: 'a sync generator breaks at [DONE], its finally closes (openai Stream)', file: 'sync_generator_finally.py', backend: 'sync' },
  { name: 'a flag set at the sentinel, the close on the flag (Speakeasy, sync)', file: 'flag_sentinel.py', backend: 'sync' },
  { name: 'a flag set at the sentinel, the close on the next chunk (Speakeasy, async)', file: 'flag_sentinel_async.py', backend: 'anyio-asyncio' },
  { name: 'a nested generator returns at [DONE] inside the with (Fern)', file: 'nested_generator.py', backend: 'sync' },
  { name: 'a loop broken on the stop event, the caller closes after', file: 'stop_event_caller.py', backend: 'sync' },
  { name: 'a held iterator read with __anext__(), closed at [DONE]', file: 'held_iterator.py', backend: 'asyncio' },
  { name: 'trio: aclose() and return', file: 'trio_aclose.py', backend: 'trio' },
  { name: '[DONE] turned into StopIteration, the response never closed', file: 'stopiteration_at_done.py', backend: 'sync', pool: 100 },
];

/** One client process over a fresh server per mode, in order: each mode's run and the server's counts. */
async function runModes(client: string, modes: readonly HostileMode[], calls: (mode: HostileMode) => number, options: { backend: string; pool?: number; python?: string; env?: NodeJS.ProcessEnv; tls?: boolean }) {
  const servers = await Promise.all(modes.map((mode) => startHostileServer({ mode })));
  const fronts = options.tls ? await Promise.all(servers.map((server) => tlsFront(server))) : [];
  try {
    const plan = servers.map((server, index) => ({ url: fronts[index]?.url ?? server.url, calls: calls(modes[index]) }));
    const { runs, maxrss_kb } = await runPythonPlan({ clientPath: client, plan, backend: options.backend, pool: options.pool, python: options.python, timeoutMs: 120_000, env: options.env });
    const held = modes.filter((mode) => mode !== 'end' && mode !== 'reset' && mode !== 'hold');
    for (const mode of held) await servers[modes.indexOf(mode)].waitFor(() => servers[modes.indexOf(mode)].closedByClient() === calls(mode), 10_000).catch(() => undefined);
    return {
      maxRssKb: maxrss_kb,
      byMode: new Map(modes.map((mode, index) => [mode, { run: runs[index], connections: servers[index].connections(), requests: servers[index].requests(), closed: servers[index].closedByClient() }])),
    };
  } finally {
    await Promise.all(fronts.map((front) => front.close()));
    await Promise.all(servers.map((server) => server.close()));
  }
}

const HELD: HostileMode[] = ['silent', 'trickle', 'hold', 'reset'];
const FLOODS: HostileMode[] = ['comments', 'line', 'flood'];

/**
 * Against a body held open after the terminal event (silent, trickling, ending 300 ms later, reset), with a drain
 * budget of 5 s: every call returns what the early close returned, no later than a generous bound that a drain
 * waiting out that budget could not meet (the caller's wait is --drain-wait-ms, 50 ms), and back to back the
 * rewrite opens no more connections than the original.
 */
async function heldBodies(shape: Shape, python?: string, env?: NodeJS.ProcessEnv, useTls = false): Promise<void> {
  const calls = () => HELD_CALLS;
  const options = { backend: shape.backend, pool: shape.pool, python, env, tls: useTls };
  const before = await runModes(clientPath(shape.file), HELD, calls, options);
  const after = await runModes(await rewritten(shape.file, { drainTimeoutMs: 5000 }), HELD, calls, options);
  for (const mode of HELD) {
    const original = before.byMode.get(mode)!;
    const rewrite = after.byMode.get(mode)!;
    expect([mode, rewrite.run.results]).toEqual([mode, original.run.results]);
    expect([mode, rewrite.requests]).toEqual([mode, HELD_CALLS]);
    expect([mode, rewrite.connections <= original.connections]).toEqual([mode, true]);
    expect([mode, Math.max(...rewrite.run.ms) < 2500]).toEqual([mode, true]);
  }
}

/**
 * Against bodies that flood after the terminal event with what a parser may drop (SSE comments, one line that never
 * ends) and with events, with a time budget (60 s) far past the hang guard: only the byte limit (64 KiB) can end
 * those drains. Every call returns what the early close returned, reads at most the limit and the chunk the terminal
 * event came in, and the client closes each body.
 */
async function floods(shape: Shape, python?: string, env?: NodeJS.ProcessEnv, useTls = false): Promise<void> {
  const client = await rewritten(shape.file, { drainTimeoutMs: 60_000, drainWaitMs: 60_000, drainMaxBytes: LIMIT });
  const { byMode, maxRssKb } = await runModes(client, FLOODS, () => 2, { backend: shape.backend, pool: shape.pool, python, env, tls: useTls });
  for (const mode of FLOODS) {
    const { run, closed, requests } = byMode.get(mode)!;
    expect([mode, run.results]).toEqual([mode, [EVENTS, EVENTS]]);
    expect([mode, requests, closed]).toEqual([mode, 2, 2]);
    expect([mode, Math.max(...run.bytes) <= LIMIT + CHUNK]).toEqual([mode, true]);
    expect([mode, Math.max(...run.ms) < 10_000]).toEqual([mode, true]);
  }
  // One line of 60 s of flood would be hundreds of MB; the drain holds at most the limit of it.
  expect(maxRssKb).toBeLessThan(150 * 1024);
}

(missing ? describe.skip : describe).each(SHAPES)('$name', (shape) => {
  const skip = shape.backend === 'trio' && trioMissing !== null;
  it.skipIf(skip)(`a body that ends: about one connection per call before, at most two over ${CALLS} calls after, the same results`, async () => {
    const run = async (client: string) => (await runModes(client, ['end'], () => CALLS, { backend: shape.backend, pool: shape.pool })).byMode.get('end')!;
    const before = await run(clientPath(shape.file));
    expect(before.connections).toBeGreaterThanOrEqual(CALLS - 2);
    expect(before.run.results).toEqual(Array.from({ length: CALLS }, () => EVENTS));
    const after = await run(await rewritten(shape.file));
    expect([after.connections <= 2, after.requests]).toEqual([true, CALLS]);
    expect(after.run.results).toEqual(before.run.results);
  });

  it.skipIf(skip)('a body held open: the same results, no more connections than the original, the caller waits the short budget only', () => heldBodies(shape));

  it.skipIf(skip)(`a flood of comments, one endless line, a flood of events: at most ${LIMIT} + ${CHUNK} bytes read per call, every body closed`, () => floods(shape));
});

/** A TLS front for a server: a Node TLS server with a certificate made for the test, one upstream connection per client connection. */
async function tlsFront(server: HostileServer): Promise<{ url: string; close: () => Promise<void> }> {
  const port = Number(new URL(server.url).port);
  const front = tls.createServer({ key: readFileSync(TLS.key), cert: readFileSync(TLS.cert) }, (socket) => {
    const upstream = net.connect(port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const { port: frontPort } = front.address() as net.AddressInfo;
  return { url: `https://127.0.0.1:${frontPort}/`, close: () => new Promise((resolve) => front.close(() => resolve())) };
}

const TLS = { key: path.join(work, 'key.pem'), cert: path.join(work, 'cert.pem') };
function makeCertificate(): string | null {
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', TLS.key, '-out', TLS.cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return null;
  } catch (error) {
    return `openssl cannot make a test certificate (${(error as Error).message.split('\n')[0]})`;
  }
}
const tlsMissing = missing ?? makeCertificate();
if (!missing && tlsMissing) console.log(`skipping the TLS runs: ${tlsMissing}`);

describe.skipIf(tlsMissing !== null)('over TLS (the drain bounds the reads of the TLS stream)', () => {
  const env = { ...process.env, DRAINGUARD_CA_FILE: TLS.cert };
  const shapes = SHAPES.filter((shape) => ['sync_generator_finally.py', 'asyncio_break.py', 'trio_aclose.py'].includes(shape.file));
  it.each(shapes)('$file: held bodies and floods', async (shape) => {
    if (shape.backend === 'trio' && trioMissing) return;
    await heldBodies(shape, undefined, env, true);
    await floods(shape, undefined, env, true);
  });
});

describe.skipIf(missing !== null)('the same drain under each async runner', () => {
  it.each(['asyncio', 'anyio-asyncio', 'anyio-trio', 'trio'])('%s', async (backend) => {
    if (backend.endsWith('trio') && trioMissing) return;
    const shape = { ...SHAPES[0], backend };
    await heldBodies(shape);
    await floods(shape);
  });
});

describe.skipIf('missing' in modern)('on httpcore 1.x (DRAINGUARD_MODERN_PYTHON: httpx >= 0.25, anyio >= 4, trio)', () => {
  const python = 'python' in modern ? modern.python : undefined;
  const shapes = SHAPES.filter((shape) => ['sse_reader_direct.py', 'asyncio_break.py', 'sync_generator_finally.py', 'trio_aclose.py', 'aconnect_sse_aiter.py'].includes(shape.file));
  it.each(shapes)('$file: held bodies and floods', async (shape) => {
    await heldBodies(shape, python);
    await floods(shape, python);
  });
  it.each(['anyio-asyncio', 'anyio-trio'])('under %s', async (backend) => {
    const shape = { ...SHAPES[0], backend };
    await heldBodies(shape, python);
    await floods(shape, python);
  });
});

