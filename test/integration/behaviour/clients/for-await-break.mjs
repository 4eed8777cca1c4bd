// for await over an iterator built on the body; `break` on the terminal event cancels the body.
async function* sseData(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('data:')) yield line.slice(5).trim();
  }
}

export async function callOnce(url, init = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  const messages = [];
  for await (const data of sseData(res.body)) {
    if (data === '[DONE]') break;
    messages.push(JSON.parse(data));
  }
  return messages;
}
