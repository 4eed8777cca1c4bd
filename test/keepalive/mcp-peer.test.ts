// The second peer: the MCP TypeScript SDK's streamable HTTP server (stateless, SSE responses) on a
// counting node:http server. The clients POST a JSON-RPC tools/call and treat the JSON-RPC result as
// the terminal event.
//
// Measured: against this server even the early-close client reuses its connection (2 connections
// for 20 calls), because the SDK writes the result and ends the response back to back, so undici has
// usually parsed the end of the body before the client cancels. That is a race the client wins by
// luck, not a guarantee, so it is not asserted; the JSON-RPC test against the counting server (which
// ends the response a little after the result) shows the early close costing a connection per call.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { measureKeepAlive } from '../support/keepalive.mjs';

const client = (name: string) => fileURLToPath(new URL(`../../bench/clients/${name}.mjs`, import.meta.url));
const CALLS = 20;

type RpcMessage = { jsonrpc: string; id?: number; method?: string; result?: unknown; params?: { progressToken?: number } };

describe('MCP SDK peer (StreamableHTTPServerTransport, stateless, SSE)', () => {
  it('mcp-hand-drained reuses the connection (at most 2 over 20 calls); both clients get the same messages', async () => {
    const early = await measureKeepAlive(client('mcp-early-close'), { calls: CALLS, peer: 'mcp', server: { events: 3 } });
    const drained = await measureKeepAlive(client('mcp-hand-drained'), { calls: CALLS, peer: 'mcp', server: { events: 3 } });
    expect(drained.requests).toBe(CALLS);
    expect(drained.connections).toBeLessThanOrEqual(2);
    expect(early.requests).toBe(CALLS);
    expect(drained.results).toEqual(early.results);

    const last = drained.results[CALLS - 1] as RpcMessage[];
    expect(last).toHaveLength(4);
    expect(last.slice(0, 3).map((m) => [m.method, m.params?.progressToken])).toEqual([
      ['notifications/progress', CALLS],
      ['notifications/progress', CALLS],
      ['notifications/progress', CALLS],
    ]);
    expect(last[3]).toMatchObject({ jsonrpc: '2.0', id: CALLS, result: { content: [{ type: 'text', text: 'ok' }] } });
  });
});
