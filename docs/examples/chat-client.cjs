// The client under test in these examples, standing for your SDK's streaming call: an SSE request
// fixed as `drainguard fix` fixes it. At `data: [DONE]` it hands the events over and drains the rest
// of the body in the background, bounded by time (the original cancel after budgetMs) and by bytes,
// so the keep-alive connection goes back to the pool and nothing after [DONE] reaches the caller.
// CommonJS, so that jest (CommonJS by default), vitest and node:test can all load it.

/**
 * @param {string} url
 * @returns {Promise<unknown[]>} the events before [DONE]
 */
async function streamEvents(url, budgetMs = 1000, maxBytes = 128 * 1024) {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const events = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue;
      if (line === 'data: [DONE]') {
        void drain(reader, budgetMs, maxBytes);
        return events;
      }
      events.push(JSON.parse(line.slice('data: '.length)));
    }
  }
}

/** Reads the reader to its end, discarding; cancels it after budgetMs or past maxBytes. */
async function drain(reader, budgetMs, maxBytes) {
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), budgetMs);
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      bytes += value.byteLength;
      if (bytes >= maxBytes) return void (await reader.cancel());
    }
  } catch {
    // the budget's cancel, or a connection error after the terminal event
  } finally {
    clearTimeout(timer);
  }
}

module.exports = { streamEvents };
