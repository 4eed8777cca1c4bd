// A client that reconnects when the stream fails: `break` at [DONE] out of `for await` over the body,
// inside a try whose catch retries the whole call. A read error after the terminal event must never
// reach that catch (the server would see a second request).
export async function callOnce(url, init = {}) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const res = await fetch(url, init);
      const decoder = new TextDecoder();
      const messages = [];
      let buffer = '';
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true });
        const frames = buffer.split('\n\n');
        buffer = frames.pop() ?? '';
        const data = frames.filter((frame) => frame.startsWith('data:')).map((frame) => frame.slice(5).trim());
        const stop = data.indexOf('[DONE]');
        for (const item of stop >= 0 ? data.slice(0, stop) : data) messages.push(JSON.parse(item));
        if (stop >= 0) break;
      }
      return messages;
    } catch {
      // reconnect and try again
    }
  }
  throw new Error('gave up after 3 attempts');
}
