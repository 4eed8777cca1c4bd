// An SDK-style SSE client with the bug drainguard exists for: on the `[DONE]` terminal event it
// cancels the reader instead of reading the body to EOF. On Node's fetch (undici) cancelling a body
// that has not ended destroys the pooled keep-alive socket, so every call opens a new connection.
// This file is the input of the bench's `drainguard-fixed` variant (the codemod rewrites it), so
// keep it plain JS and keep the shape: a `while (true)` reader loop and a completion branch that
// closes the reader and returns the collected messages.

/**
 * @param {string} url
 * @param {RequestInit & { dispatcher?: unknown }} [init] extra fetch options (e.g. a `dispatcher`)
 * @returns {Promise<unknown[]>} the parsed `data:` messages before `[DONE]`
 */
export async function callOnce(url, init = {}) {
  const res = await fetch(url, { ...init, headers: { accept: 'text/event-stream' } });
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
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        await reader.cancel();
        return messages;
      }
      messages.push(JSON.parse(data));
    }
  }
  return messages;
}
