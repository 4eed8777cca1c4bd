// The same SSE client as early-close.mjs, fixed by hand: on `[DONE]` it remembers the terminal event
// and keeps reading to EOF (discarding anything after it) so the connection goes back to the pool.
// The drain is bounded: if EOF has not come `drainTimeoutMs` after the terminal event (a server or
// proxy that keeps the stream open), it does the original close.

/**
 * @param {string} url
 * @param {RequestInit & { dispatcher?: unknown }} [init] extra fetch options (e.g. a `dispatcher`)
 * @param {number} [drainTimeoutMs] drain budget after the terminal event; 0 = unbounded
 * @returns {Promise<unknown[]>} the parsed `data:` messages before `[DONE]`
 */
export async function callOnce(url, init = {}, drainTimeoutMs = 1000) {
  const res = await fetch(url, { ...init, headers: { accept: 'text/event-stream' } });
  if (!res.ok || !res.body) {
    throw new Error(`unexpected response: HTTP ${res.status}`);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const messages = [];
  let buffer = '';
  let sawTerminalEvent = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let drainTimer;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (sawTerminalEvent) continue; // draining: discard what follows the terminal event
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          sawTerminalEvent = true;
          if (drainTimeoutMs > 0) {
            drainTimer = setTimeout(() => {
              reader.cancel().catch(() => {});
            }, drainTimeoutMs);
          }
          break;
        }
        messages.push(JSON.parse(data));
      }
    }
  } finally {
    if (drainTimer !== undefined) clearTimeout(drainTimer);
  }
  return messages;
}
