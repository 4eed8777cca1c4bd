// An MCP streamable-HTTP client with the early-close bug (the shape of the MCP Python SDK's
// `_handle_sse_response` before its fix): POST a JSON-RPC `tools/call`, read the SSE response, and
// as soon as the JSON-RPC response for our request id arrives, cancel the reader instead of reading
// the body to EOF. Plain JS; the bench's `drainguard-fixed` variant for `--peer mcp` is the codemod's
// rewrite of this file.

let nextId = 1;

/**
 * A JSON-RPC response (a result or an error): the terminal event of a request's SSE stream.
 * @param {any} message
 */
function isJSONRPCResponse(message) {
  return typeof message === 'object' && message !== null && 'id' in message && ('result' in message || 'error' in message);
}

/**
 * @param {string} url the MCP endpoint
 * @param {RequestInit & { dispatcher?: unknown }} [init] extra fetch options (e.g. a `dispatcher`)
 * @returns {Promise<unknown[]>} every JSON-RPC message received, the result last
 */
export async function callOnce(url, init = {}) {
  const id = nextId++;
  const res = await fetch(url, {
    ...init,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo', arguments: {}, _meta: { progressToken: id } },
    }),
  });
  if (!res.ok || !res.body) {
    throw new Error(`unexpected response: HTTP ${res.status}`);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const messages = [];
  let buffer = '';
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      const message = JSON.parse(line.slice(5).trim());
      messages.push(message);
      if (isJSONRPCResponse(message) && message.id === id) {
        await reader.cancel();
        return messages;
      }
    }
  }
  return messages;
}
