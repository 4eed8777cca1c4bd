// The probe's peer: a real node:http server on 127.0.0.1 (test/support's counting server) that
// answers every request with an SSE chat-completion stream, `data: [DONE]` as its terminal event
// (OpenAI's chat completions and Speakeasy's Mistral SDK both stop on it), then, by `mode`:
//   end    writes a comment and ends the body `tailDelayMs` after [DONE] (a well-behaved server)
//   hold   keeps the body open `holdMs` after [DONE], then ends it (a proxy that holds the stream)
//   reset  destroys the connection `tailDelayMs` after [DONE] (a read error after the terminal event)
// For each request it records when [DONE] was written and when the response ended or was closed.
import { startCountingServer } from '../../test/support/counting-server.mjs';

/** @param {number} i @param {number} events */
function chunk(i, events) {
  return {
    id: 'chatcmpl-probe',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'probe-model',
    choices: [{ index: 0, delta: { role: 'assistant', content: `event ${i}` }, finish_reason: i === events - 1 ? 'stop' : null }],
  };
}

/**
 * @param {{ events?: number, holdMs?: number, tailDelayMs?: number }} [options]
 */
export async function startProbeServer({ events = 3, holdMs = 4000, tailDelayMs = 5 } = {}) {
  /** @type {'end' | 'hold' | 'reset'} */
  let mode = 'end';
  /** @type {{ mode: string, terminalAt: number, endedAt: number, closedAt: number }[]} */
  const timings = [];
  const timers = new Set();
  const later = (ms, fn) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const server = await startCountingServer({
    name: 'probe-server',
    handle(req, res) {
      const timing = { mode, terminalAt: 0, endedAt: 0, closedAt: 0 };
      timings.push(timing);
      res.on('finish', () => (timing.endedAt = Date.now()));
      res.on('close', () => {
        if (!res.writableFinished) timing.closedAt = Date.now();
      });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (let i = 0; i < events; i++) res.write(`data: ${JSON.stringify(chunk(i, events))}\n\n`);
        res.write('data: [DONE]\n\n');
        timing.terminalAt = Date.now();
        const tail = () => {
          if (!res.destroyed) res.end(': end of stream\n\n');
        };
        if (timing.mode === 'hold') later(holdMs, tail);
        else if (timing.mode === 'reset') later(tailDelayMs, () => res.socket?.resetAndDestroy());
        else later(tailDelayMs, tail);
      });
    },
    onClose() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  });

  return {
    url: server.url.replace(/\/$/, ''),
    /** @param {'end' | 'hold' | 'reset'} next */
    setMode(next) {
      mode = next;
    },
    connections: server.connections,
    log: () => server.log().map((record, i) => ({ ...record, ...timings[i] })),
    /**
     * Resolves once `predicate()` holds (checked every 10 ms: the timings above are written by
     * listeners that run after the counting server's own notification).
     * @param {() => boolean} predicate
     */
    waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate()) resolve(undefined);
          else if (Date.now() > deadline) reject(new Error(`probe-server: condition not met within ${timeoutMs} ms`));
          else setTimeout(check, 10);
        };
        check();
      });
    },
    reset() {
      server.reset();
      timings.length = 0;
    },
    close: server.close,
  };
}
