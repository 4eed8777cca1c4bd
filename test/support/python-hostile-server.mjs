// A counting server (counting-server.mjs) whose responses are SSE streams that go on after their
// terminal event (`data: [DONE]`) the ways a drain must survive:
//   end      the body ends 5 ms later (a well-behaved server: the connection can be reused)
//   silent   nothing more is sent and the body never ends
//   trickle  an SSE comment every 100 ms, forever (a per-read timeout never fires)
//   flood    events as fast as the client reads them, forever
//   comments SSE comments as fast as the client reads them, forever (no event a parser yields)
//   line     one line that never ends (`data: xxx…` without a line break), as fast as the client reads it
//   hold     nothing for `holdMs` (default 300), then the body ends (a slow end: reusable if waited for)
//   reset    the connection is reset (TCP RST) 20 ms later
// Every response first sends `events` events `id: i` `data: {"index":i,"text":"event i"}`
// (expectedMessages of sse-server.mjs; the ids make a client that reconnects on errors resumable).
// Open responses are destroyed by close().
import { startCountingServer } from './counting-server.mjs';
import { expectedMessages } from './sse-server.mjs';

export const HOSTILE_MODES = /** @type {const} */ (['end', 'silent', 'trickle', 'flood', 'comments', 'line', 'hold', 'reset']);

/**
 * @param {{ mode: typeof HOSTILE_MODES[number], events?: number, holdMs?: number }} options
 * @returns {Promise<import('./python-hostile-server.d.mts').HostileServer>}
 */
export async function startHostileServer({ mode, events = 2, holdMs = 300 }) {
  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();
  let bytesAfterTerminal = 0;
  const flood = `data: ${JSON.stringify({ index: -1, text: 'x'.repeat(4000) })}\n\n`;
  const filler = { flood, comments: `: ${'x'.repeat(4000)}\n\n`, line: 'x'.repeat(4096) };
  const server = await startCountingServer({
    name: `hostile-server (${mode})`,
    handle(req, res, control) {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [id, message] of expectedMessages(events, 'sse').entries()) res.write(`id: ${id}\ndata: ${JSON.stringify(message)}\n\n`);
      res.write('data: [DONE]\n\n');
      const write = (/** @type {string} */ text) => {
        bytesAfterTerminal += Buffer.byteLength(text);
        return res.write(text);
      };
      if (mode === 'end') {
        const timer = setTimeout(() => res.end(': end of stream\n\n'), 5);
        timers.add(timer);
      } else if (mode === 'trickle') {
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : write(': keep-alive\n\n')), 100);
        timers.add(timer);
      } else if (mode === 'hold') {
        const timer = setTimeout(() => res.end(': end of stream\n\n'), holdMs);
        timers.add(timer);
      } else if (mode === 'flood' || mode === 'comments' || mode === 'line') {
        if (mode === 'line') write('data: ');
        const pump = () => {
          while (!res.destroyed && write(filler[mode]));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      } else if (mode === 'reset') {
        const timer = setTimeout(() => {
          control.expire();
          res.socket?.resetAndDestroy();
        }, 20);
        timers.add(timer);
      }
    },
    onClose() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  });
  return { ...server, bytesAfterTerminal: () => bytesAfterTerminal };
}
