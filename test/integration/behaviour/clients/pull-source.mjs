// A Speakeasy-style EventStream: pull() parses buffered events and cancels upstream on [DONE].
function eventStream(responseBody) {
  const upstream = responseBody.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return new ReadableStream({
    async pull(downstream) {
      while (true) {
        const boundary = buffer.indexOf('\n\n');
        if (boundary < 0) {
          const chunk = await upstream.read();
          if (chunk.done) return downstream.close();
          buffer += decoder.decode(chunk.value, { stream: true });
          continue;
        }
        const frame = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        if (!frame.startsWith('data:')) continue;
        const data = frame.slice(5).trim();
        const item = data === '[DONE]' ? { done: true } : { done: false, value: JSON.parse(data) };
        if (!item.done) return downstream.enqueue(item.value);
        if (item.done) {
          await upstream.cancel('done');
          return downstream.close();
        }
      }
    },
    cancel: (reason) => upstream.cancel(reason),
  });
}

export async function callOnce(url, init = {}) {
  const res = await fetch(url, init);
  const messages = [];
  for await (const message of eventStream(res.body)) messages.push(message);
  return messages;
}
