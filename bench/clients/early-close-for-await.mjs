// The early-close bug in its implicit form: a `for await` over the response body that `break`s once
// the `[DONE]` terminal event was seen. Leaving a `for await` calls the iterator's `return()`, which
// cancels the body before EOF, so undici destroys the keep-alive socket.
// The request carries an AbortController (as SDKs do), which a bounded drain can use as its budget.

/**
 * @param {string} url
 * @param {RequestInit & { dispatcher?: unknown }} [init] extra fetch options (e.g. a `dispatcher`)
 * @returns {Promise<unknown[]>} the parsed `data:` messages before `[DONE]`
 */
export async function callOnce(url, init = {}) {
  const controller = new AbortController();
  const res = await fetch(url, {
    ...init,
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!res.ok || !res.body) {
    throw new Error(`unexpected response: HTTP ${res.status}`);
  }
  const decoder = new TextDecoder();
  const messages = [];
  let buffer = '';
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    let finished = false;
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        finished = true;
        break;
      }
      messages.push(JSON.parse(data));
    }
    if (finished) break;
  }
  return messages;
}
