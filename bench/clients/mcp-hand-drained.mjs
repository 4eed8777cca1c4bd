// mcp-early-close.mjs fixed by hand: once the JSON-RPC response for our request arrives, remember it
// and keep reading the SSE body to EOF (bounded by `drainTimeoutMs`, after which it does the original
// cancel) so the keep-alive connection goes back to the pool.

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
 * @param {number} [drainTimeoutMs] drain budget after the response; 0 = unbounded
 * @returns {Promise<unknown[]>} every JSON-RPC message received, the result last
 */
export async function callOnce(url, init = {}, drainTimeoutMs = 1000) {
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
  let receivedResponse = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let drainTimer;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (receivedResponse) continue; // draining: discard what follows the response
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data:')) continue;
        const message = JSON.parse(line.slice(5).trim());
        messages.push(message);
        if (isJSONRPCResponse(message) && message.id === id) {
          receivedResponse = true;
          if (drainTimeoutMs > 0) {
            drainTimer = setTimeout(() => {
              reader.cancel().catch(() => {});
            }, drainTimeoutMs);
          }
          break;
        }
      }
    }
  } finally {
    if (drainTimer !== undefined) clearTimeout(drainTimer);
  }
  return messages;
}
