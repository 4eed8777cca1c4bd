// drainguard/testing's stream server (the built dist/testing.js, as users import it), with real fetch
// and node:http clients: the bodies it writes, what follows the terminal event in each mode, and the
// counts it keeps and serves at /__drainguard/stats.
import http from 'node:http';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import * as kit from '../support/testing-kit.mjs';
import { startCountingServer, startStreamServer, type CountingServer } from '../support/testing-kit.mjs';

const servers: CountingServer[] = [];
async function start(options: Parameters<typeof startStreamServer>[0] = {}) {
  const server = await startStreamServer(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** One request on a connection of its own (node:http, no agent), its body read to the end. */
function request(url: string, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Reads a fetch body until `until(textSoFar)` holds; returns the reader (still open) and the text. */
async function readUntil(url: string, until: (text: string) => boolean) {
  const response = await fetch(url);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the body ended before the condition held: ${JSON.stringify(text)}`);
    text += decoder.decode(value, { stream: true });
  }
  return { reader, text };
}

describe('the bodies', () => {
  it('sse (default): three data events, data: [DONE], a comment, then the end', async () => {
    const server = await start();
    expect(await request(server.url)).toEqual({
      status: 200,
      body:
        'data: {"index":0,"text":"event 0"}\n\ndata: {"index":1,"text":"event 1"}\n\ndata: {"index":2,"text":"event 2"}\n\n' +
        'data: [DONE]\n\n: end of stream\n\n',
    });
    expect(server.stats()).toEqual({ connections: 1, requests: 1, closedEarly: 0, finished: 1 });
  });

  it('ndjson: delta lines, {"type":"done"}, an empty line', async () => {
    const server = await start({ format: 'ndjson', events: 2 });
    expect((await request(`${server.url}/any/path?x=1`, 'POST', 'ignored')).body).toBe(
      '{"type":"delta","index":0,"text":"event 0"}\n{"type":"delta","index":1,"text":"event 1"}\n{"type":"done"}\n\n',
    );
  });

  it("jsonrpc: progress notifications with the request's token, then the reply to its id", async () => {
    const server = await start({ format: 'jsonrpc', events: 1, tail: '' });
    const call = JSON.stringify({ jsonrpc: '2.0', id: 'call-7', method: 'tools/call', params: { name: 'echo', _meta: { progressToken: 'p1' } } });
    expect((await request(server.url, 'POST', call)).body).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":1}}\n\n' +
        'event: message\ndata: {"jsonrpc":"2.0","id":"call-7","result":{"content":[{"type":"text","text":"ok"}]}}\n\n',
    );
  });

  it('scripted: the given payloads (strings as they are, the rest as JSON) and terminal event', async () => {
    const server = await start({ events: ['hello', { a: 1 }, 'two\nlines'], terminal: { type: 'message_stop' }, tail: ': bye\n\n' });
    expect((await request(server.url)).body).toBe('data: hello\n\ndata: {"a":1}\n\ndata: two\ndata: lines\n\ndata: {"type":"message_stop"}\n\n: bye\n\n');
    const ndjson = await start({ format: 'ndjson', events: ['{"raw":true}'], terminal: 'END' });
    expect((await request(ndjson.url)).body).toBe('{"raw":true}\nEND\n\n');
  });

  it('expectedMessages() is what a client collects from the generated events', () => {
    expect(kit.expectedMessages(2)).toEqual([
      { index: 0, text: 'event 0' },
      { index: 1, text: 'event 1' },
    ]);
    expect(kit.expectedMessages(1, 'jsonrpc', 'p')).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 1 } }]);
  });
});

describe('after the terminal event', () => {
  it('silent: the body stays open; the client closing it counts as closed early', async () => {
    const server = await start({ mode: 'silent' });
    const { reader, text } = await readUntil(server.url, (t) => t.includes('data: [DONE]\n\n'));
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(server.stats()).toEqual({ connections: 1, requests: 1, closedEarly: 0, finished: 0 });
    await reader.cancel();
    await server.waitFor((s) => s.closedEarly === 1);
    // (Node's fetch may open a spare connection after the cancel destroyed this one: not asserted.)
    expect(server.stats()).toMatchObject({ requests: 1, closedEarly: 1, finished: 0 });
    const [record] = server.log();
    expect(record.terminalAt).toBeGreaterThanOrEqual(record.receivedAt);
    expect(record.endedAt).toBeGreaterThanOrEqual(record.terminalAt!);
  });

  it('trickle: keep-alive comments, every trickleIntervalMs, until the client closes', async () => {
    const server = await start({ mode: 'trickle', trickleIntervalMs: 5 });
    const { reader, text } = await readUntil(server.url, (t) => t.includes('data: [DONE]\n\n: keep-alive\n\n: keep-alive\n\n: keep-alive\n\n'));
    expect(text.slice(text.indexOf('data: [DONE]'))).toMatch(/^data: \[DONE\]\n\n(: keep-alive\n\n){3,}$/);
    await reader.cancel();
    await server.waitFor((s) => s.closedEarly === 1);
  });

  it('flood: floodBytes of filler that parses as nothing, then silence', async () => {
    const server = await start({ mode: 'flood', floodBytes: 200_000 });
    const { reader, text } = await readUntil(server.url, (t) => t.length - t.indexOf('data: [DONE]\n\n') - 14 >= 200_000);
    const filler = text.slice(text.indexOf('data: [DONE]\n\n') + 14);
    expect(filler.length).toBe(200_000);
    expect(filler.startsWith(`: ${'x'.repeat(1021)}\n: x`)).toBe(true);
    // Lines of 1024 bytes (195 of them), then the first 320 bytes of one more.
    expect(filler.replace(/: x{1021}\n/g, '')).toBe(`: ${'x'.repeat(318)}`);
    expect(server.stats().finished).toBe(0);
    await reader.cancel();
    await server.waitFor((s) => s.closedEarly === 1);
  });

  it('bytesAfterTerminal: what the server sent after the terminal event, chunked framing included', async () => {
    const ends = await start({ mode: 'end', tailDelayMs: 0 });
    expect((await request(ends.url)).body.endsWith('data: [DONE]\n\n: end of stream\n\n')).toBe(true);
    await ends.waitFor((s) => s.finished === 1);
    // The tail as one chunk (`11\r\n`, its 17 bytes, `\r\n`) and the last chunk (`0\r\n\r\n`).
    expect(ends.log()[0].bytesAfterTerminal).toBe(28);

    const floods = await start({ mode: 'flood', floodBytes: 200_000 });
    const { reader } = await readUntil(floods.url, (t) => t.length - t.indexOf('data: [DONE]\n\n') - 14 >= 200_000);
    await reader.cancel();
    await floods.waitFor((s) => s.closedEarly === 1);
    // The 200,000 bytes of filler and their chunk framing (how many writes Node puts in one chunk is its own affair:
    // at most 7 bytes for each 1024-byte line).
    const flood = floods.log()[0].bytesAfterTerminal!;
    expect(flood).toBeGreaterThan(200_000);
    expect(flood).toBeLessThanOrEqual(200_000 + 196 * 7 + 5);

    const held = await start({ mode: 'silent' });
    const silent = await readUntil(held.url, (t) => t.includes('data: [DONE]\n\n'));
    await silent.reader.cancel();
    await held.waitFor((s) => s.closedEarly === 1);
    expect(held.log()[0].bytesAfterTerminal).toBe(0);
  });

  it('reset: a read after the terminal event fails; the server’s own reset is not a close by the client', async () => {
    const server = await start({ mode: 'reset', tailDelayMs: 0 });
    const { reader } = await readUntil(server.url, (t) => t.includes('data: [DONE]\n\n'));
    await expect(
      (async () => {
        while (!(await reader.read()).done);
      })(),
    ).rejects.toThrow(TypeError);
    await server.waitFor((s) => s.requests === 1);
    expect(server.stats()).toEqual({ connections: 1, requests: 1, closedEarly: 0, finished: 0 });
  });

  it('holdMaxMs: the server ends a held-open body itself, which is not a close by the client', async () => {
    const server = await start({ mode: 'silent', holdMaxMs: 20 });
    const { reader } = await readUntil(server.url, (t) => t.includes('data: [DONE]\n\n'));
    await expect(
      (async () => {
        while (!(await reader.read()).done);
      })(),
    ).rejects.toThrow(TypeError);
    expect(server.stats()).toEqual({ connections: 1, requests: 1, closedEarly: 0, finished: 0 });
  });

  it('close() ends held-open bodies and stops listening', async () => {
    const server = await startStreamServer({ mode: 'silent' });
    const { reader } = await readUntil(server.url, (t) => t.includes('data: [DONE]\n\n'));
    await server.close();
    await expect(reader.read()).rejects.toThrow(TypeError);
    await expect(fetch(server.url)).rejects.toThrow(TypeError);
  });
});

describe('the counts at /__drainguard/stats', () => {
  it('serves the counts as JSON; connections used only for /__drainguard/ are not counted', async () => {
    const server = await start();
    expect(server.statsUrl).toBe(`${server.origin}/__drainguard/stats`);
    expect(await request(server.statsUrl)).toEqual({ status: 200, body: '{"connections":0,"requests":0,"closedEarly":0,"finished":0}\n' });
    await request(server.url);
    await request(server.url, 'POST');
    expect(await request(server.statsUrl)).toEqual({ status: 200, body: '{"connections":2,"requests":2,"closedEarly":0,"finished":2}\n' });
  });

  it('a connection that carried the stats and then a call counts once', async () => {
    const server = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (url: string) =>
      new Promise<string>((resolve, reject) => {
        http.get(url, { agent }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
    try {
      expect(await get(server.statsUrl)).toBe('{"connections":0,"requests":0,"closedEarly":0,"finished":0}\n');
      await get(server.url);
      await get(server.url);
      expect(await get(server.statsUrl)).toBe('{"connections":1,"requests":2,"closedEarly":0,"finished":2}\n');
    } finally {
      agent.destroy();
    }
  });

  it('POST /__drainguard/reset zeroes the counts; an unknown endpoint is a 404 that names the real ones', async () => {
    const server = await start();
    await request(server.url);
    expect(await request(`${server.origin}/__drainguard/reset`, 'POST')).toEqual({
      status: 200,
      body: '{"connections":0,"requests":0,"closedEarly":0,"finished":0}\n',
    });
    expect(server.stats()).toEqual({ connections: 0, requests: 0, closedEarly: 0, finished: 0 });
    expect(await request(`${server.origin}/__drainguard/stat`)).toEqual({
      status: 404,
      body: '{"error":"drainguard stream server: GET /__drainguard/stat is not an endpoint: use GET /__drainguard/stats or POST /__drainguard/reset"}\n',
    });
    expect(server.stats().requests).toBe(0);
  });
});

describe('startStreamServer() options', () => {
  it.each([
    [{ mode: 'hang' }, `startStreamServer: 'mode' must be one of end, silent, trickle, flood, endless, reset, got "hang"`],
    [{ format: 'xml' }, `startStreamServer: 'format' must be one of sse, ndjson, jsonrpc, got "xml"`],
    [{ events: -1 }, `startStreamServer: 'events' must be a whole number from 0 to 100000 or a list of payloads, got -1`],
    [{ tailDelayMs: 1.5 }, `startStreamServer: 'tailDelayMs' must be a whole number of milliseconds from 0 to 2147483647, got 1.5`],
    [{ port: 70000 }, `startStreamServer: 'port' must be a port number from 0 to 65535, got 70000`],
    [{ tail: 3 }, `startStreamServer: 'tail' must be a string, got 3`],
    [
      { trickle: true },
      `startStreamServer: unknown option 'trickle' (known: mode, format, events, terminal, tail, tailDelayMs, eventDelayMs, trickleIntervalMs, floodBytes, holdMaxMs, keepAliveTimeoutMs, port)`,
    ],
  ])('rejects %j with a message that says what is wrong', async (options, message) => {
    await expect(startStreamServer(options as never)).rejects.toThrow(new TypeError(message));
  });
});

describe('startCountingServer(): a peer of your own that is counted the same way', () => {
  it('answers with the handler, counts, and closes through `await using`', async () => {
    let url = '';
    {
      await using server = await startCountingServer({
        path: '/mcp',
        handle(req, res) {
          res.end(`you asked ${req.method} ${req.url}`);
        },
      });
      url = server.url;
      expect(url).toBe(`${server.origin}/mcp`);
      expect(await request(url, 'POST')).toEqual({ status: 200, body: 'you asked POST /mcp' });
      expect(server.log()).toEqual([expect.objectContaining({ id: 1, socket: 1, method: 'POST', path: '/mcp', finished: true, closedEarly: false })]);
    }
    await expect(request(url)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the CommonJS build', () => {
  it("require('drainguard/testing') has the same exports as the ES module", () => {
    const required = createRequire(import.meta.url)('drainguard/testing') as Record<string, unknown>;
    expect(Object.keys(required).sort()).toEqual(Object.keys(kit).sort());
    expect(Object.keys(kit).sort()).toEqual([
      'HOSTILE_MODES',
      'MODES',
      'RESET_PATH',
      'STATS_PATH',
      'expectConnectionReuse',
      'expectPromptReturn',
      'expectedMessages',
      'startCountingServer',
      'startStreamServer',
    ]);
  });
});
