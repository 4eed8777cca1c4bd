// Node 20's global fetch is undici, bundled inside Node; its `Agent` class is not exported (the
// `undici` package is not a dependency). The global dispatcher Node installs on first use is such an
// Agent, so its constructor is the class. With it we make dispatchers that trust the delay proxy's
// self-signed certificate and that give each bench variant a pool of its own.
import net from 'node:net';

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/** @returns {Promise<number>} a port on 127.0.0.1 that nothing listens on */
async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return port;
}

/**
 * The constructor of fetch's undici Agent, or an error string saying why it is not reachable.
 * @returns {Promise<{ Agent: new (options?: object) => import('./undici-agent.d.mts').Dispatcher } | { error: string }>}
 */
export async function undiciAgentClass() {
  const g = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis));
  if (!g[GLOBAL_DISPATCHER]) {
    // Make Node install its global dispatcher: one fetch to a closed local port (refused at once).
    await fetch(`http://127.0.0.1:${await closedPort()}/`).catch(() => {});
  }
  const dispatcher = /** @type {{ constructor?: Function } | undefined} */ (g[GLOBAL_DISPATCHER]);
  const Agent = /** @type {any} */ (dispatcher?.constructor);
  if (typeof Agent !== 'function' || typeof Agent.prototype?.dispatch !== 'function') {
    return { error: "fetch's undici Agent is not reachable through its global dispatcher in this Node version" };
  }
  return { Agent };
}

/**
 * A fresh undici Agent (its own connection pool) for `fetch(url, { dispatcher })`, trusting `ca` when
 * given; undefined (use the global dispatcher) when the class is not reachable.
 * @param {{ ca?: string }} [options]
 * @returns {Promise<import('./undici-agent.d.mts').Dispatcher | undefined>}
 */
export async function createDispatcher(options = {}) {
  const found = await undiciAgentClass();
  if ('error' in found) return undefined;
  const agentOptions = options.ca ? { connect: { ca: options.ca } } : {};
  if (!options.countBytes) return new found.Agent(agentOptions);
  const bodies = options.countBytes;
  // Counts each response's body bytes as undici hands them to fetch (what the client read off the socket), and where
  // the terminal event ended: the bytes after it are what a drain read.
  class CountingAgent extends found.Agent {
    dispatch(opts, handler) {
      const body = { bytes: 0, afterTerminal: null, head: '' };
      bodies.push(body);
      const onData = (chunk) => {
        if (body.afterTerminal === null) {
          body.head += chunk.toString('latin1');
          const end = terminalEnd(body.head);
          if (end >= 0) {
            body.afterTerminal = body.head.length - end;
            body.head = '';
          }
        } else {
          body.afterTerminal += chunk.length;
        }
        body.bytes += chunk.length;
        return handler.onData(chunk);
      };
      // Every other member is the handler's own, called on it (fetch's handler keeps its state on itself).
      const counting = new Proxy(handler, {
        get(target, key) {
          if (key === 'onData') return onData;
          const value = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return super.dispatch(opts, counting);
    }
  }
  return new CountingAgent(agentOptions);
}

/** Where the terminal event's frame ends in a body's text (SSE `[DONE]`, NDJSON `{"type":"done"}`, a JSON-RPC reply), or -1. */
function terminalEnd(text) {
  for (const pattern of [/data: \[DONE\]\n\n/, /\{"type":"done"\}\n/, /"result":[^\n]*\n\n/]) {
    const match = pattern.exec(text);
    if (match) return match.index + match[0].length;
  }
  return -1;
}
