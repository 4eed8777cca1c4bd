// A flag set at the terminal event inside a try with a catch; the close is in the finally, for every way out.
export async function callOnce(url, init = {}) {
  const res = await fetch(url, init);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const messages = [];
  let buffer = '';
  let complete = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          complete = true;
          break;
        }
        messages.push(JSON.parse(data));
      }
      if (complete) break;
    }
  } catch (error) {
    messages.push({ error: String(error) });
  } finally {
    await reader.cancel();
  }
  return messages;
}
