// A real Node `http` server on 127.0.0.1 that streams responses with a terminal event and counts the
// TCP connections it accepts. Plain ESM with a .d.mts beside it, so that both vitest (TypeScript) and
// `node bench/keepalive.mjs` (no loader) can import it.
//
// Every request (any method, any path) gets one streamed response:
//   sse     `data: {"index":i,"text":"event i"}` × events, then `data: [DONE]`
//   ndjson  `{"type":"delta","index":i,"text":"event i"}` × events, then `{"type":"done"}`
//   jsonrpc SSE `event: message` frames: `notifications/progress` × events, then the JSON-RPC
//           `result` for the request's id (taken from a POSTed JSON-RPC body, else 1)
// After the terminal event:
//   mode 'end'  waits `tailDelayMs`, writes `tail` (bytes after the terminal event) and ends the
//               response. The delay models a server that finishes its work (usage accounting, a
//               flush) after it sent the terminal event, which is what makes the client's close race
//               the end of the body in real deployments.
//   mode 'hang' never ends the response (a proxy or server that keeps the stream open); such
//               responses are destroyed by `close()`, or after `hangMaxMs` as a safety bound.
//   mode 'reset' waits `tailDelayMs` and resets the connection (TCP RST) instead of ending the
//               response: a read after the terminal event fails.
//   mode 'flood' never ends the response and keeps writing more events after the terminal event, as
//               fast as the client reads them (a body without end that a drain must bound by bytes);
//               destroyed by `close()`, or after `hangMaxMs`.
import { startCountingServer } from './counting-server.mjs';

/** @type {Record<string, string>} */
const DEFAULT_TAIL = { sse: ': end of stream\n\n', ndjson: '\n', jsonrpc: ': end of stream\n\n' };

/** The messages a client should collect for `events` events of `format` (terminal event excluded). */
export function expectedMessages(events = 3, format = 'sse', progressToken = 1) {
  const out = [];
  for (let i = 0; i < events; i++) out.push(message(format, i, events, progressToken));
  return out;
}

/** @param {string} format @param {number} i @param {number} events @param {string | number} progressToken */
function message(format, i, events, progressToken) {
  if (format === 'ndjson') return { type: 'delta', index: i, text: `event ${i}` };
  if (format === 'jsonrpc') return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: i + 1, total: events } };
  return { index: i, text: `event ${i}` };
}

/** @param {string} format @param {number} i @param {number} events @param {string | number} progressToken */
function frame(format, i, events, progressToken) {
  const msg = JSON.stringify(message(format, i, events, progressToken));
  if (format === 'ndjson') return `${msg}\n`;
  if (format === 'jsonrpc') return `event: message\ndata: ${msg}\n\n`;
  return `data: ${msg}\n\n`;
}

/** @param {string} format @param {string | number} id */
function terminalFrame(format, id) {
  if (format === 'ndjson') return `${JSON.stringify({ type: 'done' })}\n`;
  if (format === 'jsonrpc') {
    const msg = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } };
    return `event: message\ndata: ${JSON.stringify(msg)}\n\n`;
  }
  return 'data: [DONE]\n\n';
}

/**
 * @param {import('./sse-server.d.mts').SseServerOptions} [options]
 * @returns {Promise<import('./sse-server.d.mts').SseServer>}
 */
export async function startSseServer(options = {}) {
  const {
    events = 3,
    mode = 'end',
    format = 'sse',
    tail = DEFAULT_TAIL[format] ?? '',
    tailDelayMs = 5,
    eventDelayMs = 0,
    keepAliveTimeoutMs = 5000,
    hangMaxMs = 120_000,
  } = options;
  if (!['sse', 'ndjson', 'jsonrpc'].includes(format)) throw new Error(`unknown format ${format}`);
  if (!['end', 'hang', 'reset', 'flood'].includes(mode)) throw new Error(`unknown mode ${mode}`);

  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();

  /** @param {number} ms @param {() => void} fn */
  const later = (ms, fn) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
    return t;
  };

  /** @type {import('./counting-server.d.mts').CountingServerSetup['handle']} */
  const handle = (req, res, control) => {
    /** @type {Buffer[]} */
    const body = [];
    req.on('data', (c) => body.push(c));
    req.on('end', () => {
      if (res.destroyed) return;
      /** @type {string | number} */
      let rpcId = 1;
      /** @type {string | number} */
      let progressToken = 1;
      if (format === 'jsonrpc' && body.length) {
        try {
          const parsed = JSON.parse(Buffer.concat(body).toString('utf8'));
          if (parsed && (typeof parsed.id === 'number' || typeof parsed.id === 'string')) rpcId = parsed.id;
          const token = parsed?.params?._meta?.progressToken;
          if (typeof token === 'number' || typeof token === 'string') progressToken = token;
        } catch {
          // not JSON: answer id 1
        }
      }
      res.writeHead(200, {
        'content-type': format === 'ndjson' ? 'application/x-ndjson' : 'text/event-stream',
        'cache-control': 'no-cache',
      });
      let i = 0;
      const step = () => {
        if (res.destroyed) return;
        if (i < events) {
          res.write(frame(format, i, events, progressToken));
          i++;
          if (eventDelayMs > 0) later(eventDelayMs, step);
          else step();
          return;
        }
        res.write(terminalFrame(format, rpcId));
        if (mode === 'hang') {
          later(hangMaxMs, () => {
            control.expire();
            res.destroy();
          });
          return;
        }
        if (mode === 'flood') {
          later(hangMaxMs, () => {
            control.expire();
            res.destroy();
          });
          // 16 KiB of events a write, as long as the socket takes them.
          const burst = frame(format, events, events, progressToken).repeat(Math.ceil(16384 / frame(format, events, events, progressToken).length));
          const pump = () => {
            while (!res.destroyed && res.write(burst));
            if (!res.destroyed) res.once('drain', pump);
          };
          pump();
          return;
        }
        if (mode === 'reset') {
          later(tailDelayMs, () => {
            control.expire();
            res.socket?.resetAndDestroy();
          });
          return;
        }
        const finish = () => {
          if (res.destroyed) return;
          if (tail) res.write(tail);
          res.end();
        };
        if (tailDelayMs > 0) later(tailDelayMs, finish);
        else finish();
      };
      step();
    });
  };

  return startCountingServer({
    name: 'sse-server',
    keepAliveTimeoutMs,
    handle,
    onClose() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  });
}
