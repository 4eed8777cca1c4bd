// A helper that only closes the reader it is given; the `[DONE]` branch calls it, then returns.
function finish(reader) {
  return reader.cancel();
}

export async function callOnce(url, init = {}) {
  const res = await fetch(url, init);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const messages = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return messages;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        finish(reader);
        return messages;
      }
      messages.push(JSON.parse(data));
    }
  }
}
