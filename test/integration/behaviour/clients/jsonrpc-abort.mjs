// A JSON-RPC client that aborts the request as soon as the reply (a message with `result`) arrives.
export async function callOnce(url, init = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, method: 'POST', body: '{}', signal: controller.signal });
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
      const msg = JSON.parse(line.slice(5));
      if ('result' in msg) {
        controller.abort();
        return messages;
      }
      messages.push(msg);
    }
  }
  return messages;
}
