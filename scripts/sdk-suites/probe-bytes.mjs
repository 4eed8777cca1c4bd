// Counts, on the client, the body bytes each response delivered after its terminal event: what a
// drain (or the original close) read off the connection. Two ways in, one per kind of caller:
//   - Node's fetch: an undici Agent installed as Node's global dispatcher (the one fetch uses when
//     the SDK passes none), wrapping fetch's own handler as test/support/undici-agent.mjs does, so
//     each body is counted as undici hands it to fetch;
//   - node-fetch 2: an http.Agent (keep-alive) that counts what the HTTP parser pushes into each
//     response stream, which is what node-fetch reads.
// Each body is tagged with the call it belongs to (a drain that goes on after the call returned
// still counts for it).
import http from 'node:http';
import { undiciAgentClass } from '../../test/support/undici-agent.mjs';

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * One response body as the client received it.
 * @typedef {{ call: number, bytes: number, afterTerminal: number | null, head: string }} BodyCount
 */

/**
 * The list of bodies and a counter for one body's chunks, given the terminal frames (their text on
 * the wire, e.g. `data: [DONE]\n\n`).
 * @param {string[]} terminalFrames
 */
export function bodyCounter(terminalFrames) {
  /** @type {BodyCount[]} */
  const bodies = [];
  let call = -1;
  return {
    bodies,
    /** Tags the bodies opened from now on with call `i`. @param {number} i */
    setCall(i) {
      call = i;
    },
    /** A new body and the function that counts each of its chunks. */
    open() {
      /** @type {BodyCount} */
      const body = { call, bytes: 0, afterTerminal: null, head: '' };
      bodies.push(body);
      /** @param {Uint8Array} chunk */
      return (chunk) => countChunk(body, chunk, terminalFrames);
    },
  };
}

/**
 * Adds one chunk to a body's count; until the terminal frame has been seen the text is kept to find it.
 * @param {BodyCount} body @param {Uint8Array} chunk @param {string[]} terminalFrames
 */
export function countChunk(body, chunk, terminalFrames) {
  body.bytes += chunk.byteLength;
  if (body.afterTerminal !== null) {
    body.afterTerminal += chunk.byteLength;
    return;
  }
  body.head += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
  const end = terminalEnd(body.head, terminalFrames);
  if (end >= 0) {
    body.afterTerminal = body.head.length - end;
    body.head = '';
  }
}

/** Where the first terminal frame ends in a body's text, or -1. @param {string} text @param {string[]} frames */
export function terminalEnd(text, frames) {
  let end = -1;
  for (const frame of frames) {
    const at = text.indexOf(frame);
    if (at >= 0 && (end < 0 || at + frame.length < end)) end = at + frame.length;
  }
  return end;
}

/**
 * An undici Agent (fetch's own class, reached through Node's global dispatcher) that counts each
 * response body into `counter`. Both handler styles are wrapped: onData (undici 6, Node 20 and 22)
 * and onResponseData (undici 7).
 * @param {ReturnType<typeof bodyCounter>} counter
 */
export async function countingDispatcher(counter) {
  const found = await undiciAgentClass();
  if ('error' in found) throw new Error(found.error);
  class CountingAgent extends /** @type {any} */ (found.Agent) {
    dispatch(opts, handler) {
      const count = counter.open();
      const wrapped = new Proxy(handler, {
        get(target, key) {
          const value = Reflect.get(target, key);
          if (key === 'onData' && typeof value === 'function') {
            return (chunk) => {
              count(chunk);
              return value.call(target, chunk);
            };
          }
          if (key === 'onResponseData' && typeof value === 'function') {
            return (controller, chunk) => {
              count(chunk);
              return value.call(target, controller, chunk);
            };
          }
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return super.dispatch(opts, wrapped);
    }
  }
  return new CountingAgent();
}

/** Makes `dispatcher` the one Node's fetch uses; returns the previous one. @param {unknown} dispatcher */
export function setGlobalDispatcher(dispatcher) {
  const g = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis));
  const previous = g[GLOBAL_DISPATCHER];
  g[GLOBAL_DISPATCHER] = dispatcher;
  return previous;
}

/**
 * A keep-alive http.Agent for node-fetch 2 that counts each response body into `counter`: the
 * chunks the HTTP parser pushes into the response stream node-fetch pipes from.
 * @param {ReturnType<typeof bodyCounter>} counter
 */
export function countingHttpAgent(counter) {
  class CountingHttpAgent extends http.Agent {
    /** @param {http.ClientRequest} req @param {any} options */
    addRequest(req, options) {
      req.once('response', (res) => {
        const count = counter.open();
        const push = res.push;
        res.push = function countedPush(chunk, encoding) {
          if (chunk) count(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
          return push.call(this, chunk, encoding);
        };
      });
      return super.addRequest(req, options);
    }
  }
  return new CountingHttpAgent({ keepAlive: true });
}
