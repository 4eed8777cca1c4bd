// A method that only aborts the request is called at `[DONE]`, then the for await over the body's events is left
// (the abort rejects the leaving, caught as SDKs catch it).
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

class Call {
  controller = new AbortController();

  stop() {
    this.controller.abort();
  }

  async run(url, init) {
    const res = await fetch(url, { ...init, signal: this.controller.signal });
    const messages = [];
    try {
      for await (const data of sseData(res.body)) {
        if (data === '[DONE]') {
          this.stop();
          break;
        }
        messages.push(JSON.parse(data));
      }
    } catch (error) {
      // Leaving the loop returns the body's iterator, which rejects with the abort: SDKs catch it as the end.
      if (error?.name !== 'AbortError') throw error;
    }
    return messages;
  }
}

export function callOnce(url, init = {}) {
  return new Call().run(url, init);
}
