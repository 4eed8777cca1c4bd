// The peer of drainguard-httpx's tests and of `npm run bench:transport-python`: a counting server
// (drainguard/testing's startCountingServer: TCP connections accepted, requests, responses the client
// closed before their end) whose streamed responses go on after their terminal event the ways a drain
// must survive:
//   end           the body ends `tailDelayMs` later (a well-behaved server: the connection can be reused)
//   silent        nothing more is sent and the body is held open
//   trickle       an SSE comment every 100 ms, forever (a per-read timeout never fires)
//   flood         SSE comment lines as fast as the client reads, forever (only a byte limit ends it)
//   endless-line  one `data:` line that never ends, as fast as the client reads (a line reader never
//                 sees an event: only a byte limit counted where the bytes arrive ends it)
//   reset         the connection is reset (TCP RST) `tailDelayMs` later
// Formats (what precedes the terminal event):
//   sse     `events` events `id: i` / `data: {"index":i,"text":"event i"}`, then `data: [DONE]`
//   openai  chat.completion.chunk events ("Hello", ", world", finish_reason "stop"), then `data: [DONE]`
//           (POST .../chat/completions with "stream": true; openai-python's Stream stops at [DONE])
//   mcp     an MCP streamable-HTTP peer (stateless, JSON-RPC over SSE): `initialize` and any request
//           get one SSE reply (`tools/call` a progress notification first when the request has a
//           progressToken, then the result `{"content":[{"type":"text","text":"ok"}]}`), then the
//           mode; notifications get 202; GET (a standalone stream) gets 405
// Bytes written after the terminal event are counted (bytesAfterTerminal).
//
// As a program (the pytest fixture and bench/transport-python.mjs's children start it):
//   node test/support/transport-python-server.mjs --mode MODE [--format sse|openai|mcp] [--events N] [--tail-delay-ms N]
// prints the URL on its first line, then answers each `stats` line on stdin with one JSON line
// {connections, requests, closedEarly, finished, bytesAfterTerminal}; it exits when stdin ends.
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startCountingServer } from '../../dist/testing.js';

export const TRANSPORT_MODES = /** @type {const} */ (['end', 'silent', 'trickle', 'flood', 'endless-line', 'reset']);
export const TRANSPORT_FORMATS = /** @type {const} */ (['sse', 'openai', 'mcp']);

const FLOOD = `: ${'x'.repeat(1021)}\n`.repeat(64);
const ENDLESS = 'y'.repeat(64 * 1024);
const OPENAI_DELTAS = [{ role: 'assistant', content: 'Hello' }, { content: ', world' }, {}];

/** @param {string} payload */
const sse = (payload) => `data: ${payload}\n\n`;

/**
 * @param {{ mode: typeof TRANSPORT_MODES[number], format?: typeof TRANSPORT_FORMATS[number], events?: number, tailDelayMs?: number }} options
 */
export async function startTransportPeer({ mode, format = 'sse', events = 2, tailDelayMs = 5 }) {
  if (!TRANSPORT_MODES.includes(mode)) throw new Error(`unknown mode ${mode}: one of ${TRANSPORT_MODES.join(', ')}`);
  if (!TRANSPORT_FORMATS.includes(format)) throw new Error(`unknown format ${format}: one of ${TRANSPORT_FORMATS.join(', ')}`);
  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();
  let bytesAfterTerminal = 0;

  /** What follows the terminal event, per the mode. */
  const after = (/** @type {import('node:http').ServerResponse} */ res, /** @type {{ expire(): void }} */ control) => {
    const write = (/** @type {string} */ text) => {
      bytesAfterTerminal += Buffer.byteLength(text);
      return res.write(text);
    };
    if (mode === 'end') {
      const timer = setTimeout(() => res.end(), tailDelayMs);
      timers.add(timer);
    } else if (mode === 'trickle') {
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : write(': keep-alive\n\n')), 100);
      timers.add(timer);
    } else if (mode === 'flood' || mode === 'endless-line') {
      if (mode === 'endless-line') write('data: ');
      const chunk = mode === 'flood' ? FLOOD : ENDLESS;
      const pump = () => {
        while (!res.destroyed && write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    } else if (mode === 'reset') {
      const timer = setTimeout(() => {
        control.expire();
        res.socket?.resetAndDestroy();
      }, tailDelayMs);
      timers.add(timer);
    }
  };

  const streamHead = (/** @type {import('node:http').ServerResponse} */ res) =>
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

  /** @param {import('node:http').IncomingMessage} req @returns {Promise<string>} */
  const body = (req) =>
    new Promise((resolve) => {
      /** @type {Buffer[]} */
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', () => resolve(''));
    });

  const server = await startCountingServer({
    name: `transport-python-server (${format}, ${mode})`,
    handle(req, res, control) {
      if (format === 'sse') {
        req.resume();
        streamHead(res);
        for (let i = 0; i < events; i++) res.write(`id: ${i}\n${sse(JSON.stringify({ index: i, text: `event ${i}` }))}`);
        res.write(sse('[DONE]'));
        control.markTerminal();
        after(res, control);
        return;
      }
      void body(req).then((text) => {
        if (res.destroyed) return;
        if (format === 'openai') {
          streamHead(res);
          for (const [index, delta] of OPENAI_DELTAS.entries()) {
            const chunk = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'drainguard-peer', choices: [{ index: 0, delta, finish_reason: index === OPENAI_DELTAS.length - 1 ? 'stop' : null }] };
            res.write(sse(JSON.stringify(chunk)));
          }
          res.write(sse('[DONE]'));
          control.markTerminal();
          after(res, control);
          return;
        }
        // mcp
        if (req.method === 'GET') {
          res.writeHead(405, { allow: 'POST' });
          res.end();
          return;
        }
        if (req.method === 'DELETE') {
          res.writeHead(200);
          res.end();
          return;
        }
        /** @type {{ id?: string | number, method?: string, params?: { _meta?: { progressToken?: string | number }, protocolVersion?: string } }} */
        let message = {};
        try {
          message = JSON.parse(text);
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
          return;
        }
        if (message.id === undefined) {
          res.writeHead(202);
          res.end();
          return;
        }
        streamHead(res);
        const frame = (/** @type {unknown} */ payload) => `event: message\n${sse(JSON.stringify(payload))}`;
        let result;
        if (message.method === 'initialize') {
          result = { protocolVersion: message.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'drainguard-transport-peer', version: '0.0.0' } };
        } else if (message.method === 'tools/list') {
          result = { tools: [{ name: 'echo', description: 'Replies ok', inputSchema: { type: 'object' } }] };
        } else {
          const progressToken = message.params?._meta?.progressToken;
          if (progressToken !== undefined) res.write(frame({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 1, total: 1 } }));
          result = { content: [{ type: 'text', text: 'ok' }] };
        }
        res.write(frame({ jsonrpc: '2.0', id: message.id, result }));
        control.markTerminal();
        after(res, control);
      });
    },
    onClose() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  });
  return { ...server, bytesAfterTerminal: () => bytesAfterTerminal };
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {Record<string, string>} */
  const options = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--') || argv[i + 1] === undefined) throw new Error(`usage: --mode MODE [--format F] [--events N] [--tail-delay-ms N] (at ${argv[i]})`);
    options[argv[i].slice(2)] = argv[i + 1];
  }
  return options;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const options = parseArgs(process.argv.slice(2));
  const server = await startTransportPeer({
    mode: /** @type {typeof TRANSPORT_MODES[number]} */ (options.mode ?? 'end'),
    format: /** @type {typeof TRANSPORT_FORMATS[number]} */ (options.format ?? 'sse'),
    events: options.events === undefined ? undefined : Number(options.events),
    tailDelayMs: options['tail-delay-ms'] === undefined ? undefined : Number(options['tail-delay-ms']),
  });
  process.stdout.write(`${server.url}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === 'stats') process.stdout.write(`${JSON.stringify({ ...server.stats(), bytesAfterTerminal: server.bytesAfterTerminal() })}\n`);
  });
  lines.on('close', () => {
    void server.close().then(() => process.exit(0));
  });
}
