// A flag set in the completion branch ends the loop through its condition; the close comes after the loop.
export async function callOnce(url, init = {}) {
  const res = await fetch(url, init);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const messages = [];
  let buffer = '';
  let finished = false;
  while (!finished) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        finished = true;
        break;
      }
      messages.push(JSON.parse(data));
    }
  }
  await reader.cancel();
  return messages;
}
