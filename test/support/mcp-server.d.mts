import type { CountingServer } from './sse-server.mjs';

export interface McpPeerOptions {
  /** Progress notifications the `echo` tool sends before its result (when the call has a progressToken); default 3. */
  events?: number;
  /** http.Server keepAliveTimeout (default 5000 ms). */
  keepAliveTimeoutMs?: number;
}

/** The MCP TypeScript SDK's streamable HTTP server (stateless, SSE responses) on a counting node:http server. */
export function startMcpServer(options?: McpPeerOptions): Promise<CountingServer>;
