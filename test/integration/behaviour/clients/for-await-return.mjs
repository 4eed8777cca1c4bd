// for await with a value returned from the completion branch.
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
  const response = await fetch(url, { ...init, signal: controller.signal });
  const messages = [];
  for await (const data of sseData(response.body)) {
    if (data === '[DONE]') {
      return messages;
    }
    messages.push(JSON.parse(data));
  }
  throw new Error('the stream ended without [DONE]');
}
