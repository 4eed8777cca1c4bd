// The second peer: the MCP TypeScript SDK's streamable HTTP server (stateless, SSE responses) mounted
// on a node:http server on 127.0.0.1 that counts TCP connections. One tool, `echo`, which sends
// `events` progress notifications (when the request carries a progressToken) and then returns; the
// SDK writes the JSON-RPC result as the last SSE event and ends the response.
//
// Stateless mode: a fresh McpServer + StreamableHTTPServerTransport per request (the SDK refuses to
// reuse a stateless transport), `enableJsonResponse: false` so every POST is answered with SSE.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { startCountingServer } from './counting-server.mjs';

/**
 * @param {import('./mcp-server.d.mts').McpPeerOptions} [options]
 * @returns {Promise<import('./sse-server.d.mts').CountingServer>}
 */
export async function startMcpServer(options = {}) {
  const { events = 3, keepAliveTimeoutMs = 5000 } = options;

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

  return startCountingServer({
    name: 'mcp-server',
    path: '/mcp',
    keepAliveTimeoutMs,
    async handle(req, res) {
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
    },
  });
}
