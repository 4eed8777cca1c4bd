// The second peer: the MCP TypeScript SDK's streamable HTTP server (stateless, SSE responses) mounted
// on a node:http server on 127.0.0.1 that counts TCP connections. One tool, `echo`, which sends
// `events` progress notifications (when the request carries a progressToken) and then returns; the
// SDK writes the JSON-RPC result as the last SSE event and ends the response.
//
// Stateless mode: a fresh McpServer + StreamableHTTPServerTransport per request (the SDK refuses to
// reuse a stateless transport), `enableJsonResponse: false` so every POST is answered with SSE.
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * @param {import('./mcp-server.d.mts').McpPeerOptions} [options]
 * @returns {Promise<import('./sse-server.d.mts').CountingServer>}
 */
export async function startMcpServer(options = {}) {
  const { events = 3, keepAliveTimeoutMs = 5000 } = options;
  let connections = 0;
  let closing = false;
  /** @type {import('./sse-server.d.mts').RequestRecord[]} */
  let log = [];
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  /** @type {WeakMap<import('node:net').Socket, number>} */
  const socketIds = new WeakMap();
  /** @type {Array<() => void>} */
  let waiters = [];
  const notify = () => {
    const ws = waiters;
    waiters = [];
    for (const w of ws) w();
  };

  const makeMcp = () => {
    const mcp = new McpServer({ name: 'drainguard-bench-peer', version: '0.0.0' });
    mcp.registerTool('echo', { description: 'Replies "ok" after `events` progress notifications' }, async (extra) => {
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) {
        for (let i = 0; i < events; i++) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: i + 1, total: events },
          });
        }
      }
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    return mcp;
  };

  const server = http.createServer(async (req, res) => {
    const record = {
      id: log.length + 1,
      socket: socketIds.get(req.socket) ?? 0,
      method: req.method ?? 'GET',
      finished: false,
      closedByClient: false,
    };
    log.push(record);
    res.on('finish', () => {
      record.finished = true;
      notify();
    });
    res.on('close', () => {
      if (!res.writableFinished && !closing) record.closedByClient = true;
      notify();
    });
    const mcp = makeMcp();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: false });
    res.on('close', () => {
      transport.close().catch(() => {});
      mcp.close().catch(() => {});
    });
    try {
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    } catch (err) {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      } else res.destroy();
    }
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', (socket) => {
    connections++;
    socketIds.set(socket, connections);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());

  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    port: address.port,
    connections: () => connections,
    requests: () => log.length,
    closedByClient: () => log.filter((r) => r.closedByClient).length,
    finished: () => log.filter((r) => r.finished).length,
    log: () => log.map((r) => ({ ...r })),
    reset() {
      connections = 0;
      log = [];
    },
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`mcp-server: condition not met within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (predicate()) {
            clearTimeout(deadline);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    async close() {
      closing = true;
      const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
      for (const s of sockets) s.destroy();
      await closed;
      notify();
    },
  };
}
