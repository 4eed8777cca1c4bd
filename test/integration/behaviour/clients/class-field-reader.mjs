// A connection object that keeps its reader in a field; next() cancels it at [DONE] and returns null.
// Other calls of next() read the same field, so the rewrite waits for its (bounded) drain here.
class SseConnection {
  async open(url, init) {
    const res = await fetch(url, init);
    this.reader = res.body.getReader();
    this.decoder = new TextDecoder();
    this.frames = [];
    this.buffer = '';
  }

  async next() {
    while (this.frames.length === 0) {
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffer += this.decoder.decode(value, { stream: true });
      const frames = this.buffer.split('\n\n');
      this.buffer = frames.pop() ?? '';
      this.frames.push(...frames.filter((frame) => frame.startsWith('data:')).map((frame) => frame.slice(5).trim()));
    }
    const data = this.frames.shift();
    if (data === '[DONE]') {
      await this.reader.cancel();
      return null;
    }
    return JSON.parse(data);
  }
}

export async function callOnce(url, init = {}) {
  const connection = new SseConnection();
  await connection.open(url, init);
  const messages = [];
  for (let message = await connection.next(); message !== null; message = await connection.next()) messages.push(message);
  return messages;
}
