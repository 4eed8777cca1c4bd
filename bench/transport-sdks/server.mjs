// The peer of `npm run bench:transport`: a counting server (drainguard/testing's, so connections, requests and
// early closes are counted the same way) that speaks just enough of three APIs for their SDKs to make streamed
// calls: OpenAI chat completions (terminal `data: [DONE]`), Anthropic messages (terminal `event: message_stop`) and
// MCP streamable HTTP (terminal: the JSON-RPC reply). After the terminal event it does what `mode` says, like
// the stream server: end the body 20 ms later, hold it silent, trickle keep-alives, flood, or reset.
import { startCountingServer } from '../../dist/testing.js';

const TAIL_DELAY_MS = 20;
const TRICKLE_MS = 100;
const FLOOD_BYTES = 64 * 1024 * 1024;
const HOLD_MAX_MS = 60_000;
const FLOOD_CHUNK = `: ${'x'.repeat(1021)}\n`.repeat(64);

/** @param {string | undefined} event @param {unknown} data */
const sse = (event, data) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

const chunk = (delta, finish = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] });

/** OpenAI chat completions: three chunks, then [DONE]. */
function openai() {
  return { sse: [sse(undefined, chunk({ role: 'assistant', content: 'Hello' })), sse(undefined, chunk({ content: ', world' })), sse(undefined, chunk({}, 'stop')), sse(undefined, '[DONE]')] };
}

/** Anthropic messages: message_start, one text block, message_delta, then message_stop. */
function anthropic() {
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 0 } };
  return {
    sse: [
      sse('message_start', { type: 'message_start', message }),
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello, world' } }),
      sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
      sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }),
      sse('message_stop', { type: 'message_stop' }),
    ],
  };
}

/** MCP streamable HTTP, stateless: initialize and tools/call answered with SSE, notifications with 202, GET with 405. */
function mcp(method, body) {
  if (method === 'GET') return { status: 405, headers: { allow: 'POST' }, body: '' };
  if (method !== 'POST') return { status: 200, body: '' };
  let message;
  try {
    message = JSON.parse(body);
  } catch {
    return { status: 400, body: 'not JSON' };
  }
  if (message.id === undefined) return { status: 202, body: '' };
  const reply = (result) => sse('message', { jsonrpc: '2.0', id: message.id, result });
  if (message.method === 'initialize') {
    return { sse: [reply({ protocolVersion: message.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'bench', version: '1.0.0' } })] };
  }
  if (message.method === 'tools/list') return { sse: [reply({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] })] };
  const token = message.params?._meta?.progressToken;
  const progress = token === undefined ? [] : [1, 2].map((n) => sse('message', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n, total: 2 } }));
  return { sse: [...progress, reply({ content: [{ type: 'text', text: 'Hello, world' }] })] };
}

const APIS = { openai: () => openai(), anthropic: () => anthropic(), mcp };

/**
 * @param {{ api: 'openai' | 'anthropic' | 'mcp', mode: 'end' | 'silent' | 'trickle' | 'flood' | 'reset' }} options
 */
export async function startSdkServer({ api, mode }) {
  const timers = new Set();
  const later = (ms, fn) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };
  /** What follows the terminal event. */
  const afterTerminal = (res, control) => {
    if (mode === 'end') return later(TAIL_DELAY_MS, () => !res.destroyed && res.end(': end of stream\n\n'));
    if (mode === 'reset') {
      return later(TAIL_DELAY_MS, () => {
        control.expire();
        res.socket?.resetAndDestroy();
      });
    }
    const bound = later(HOLD_MAX_MS, () => {
      control.expire();
      res.destroy();
    });
    const trickle = mode === 'trickle' ? setInterval(() => res.write(': keep-alive\n\n'), TRICKLE_MS) : undefined;
    if (trickle) timers.add(trickle);
    res.on('close', () => {
      clearTimeout(bound);
      clearInterval(trickle);
    });
    if (mode === 'flood') {
      let sent = 0;
      const pump = () => {
        while (!res.destroyed && sent < FLOOD_BYTES) {
          sent += FLOOD_CHUNK.length;
          if (!res.write(FLOOD_CHUNK)) return void res.once('drain', pump);
        }
      };
      pump();
    }
  };
  return startCountingServer({
    name: `bench ${api} server`,
    onClose() {
      for (const timer of timers) clearTimeout(timer);
    },
    handle(req, res, control) {
      const body = [];
      req.on('data', (piece) => body.push(piece));
      req.on('end', () => {
        const answer = APIS[api](req.method, Buffer.concat(body).toString('utf8'));
        if (!answer.sse) {
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          res.end(answer.body);
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const frame of answer.sse) res.write(frame);
        control.markTerminal();
        afterTerminal(res, control);
      });
    },
  });
}
