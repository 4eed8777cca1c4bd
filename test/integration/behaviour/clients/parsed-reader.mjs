// A reader of parsed events (the body piped through a parser), cancelled at [DONE]: what it reads are messages, not
// the body's bytes, so the drain is bounded by time only (a tenth of the budget).
function sseEvents() {
  let buffer = '';
  return new TransformStream({
    transform(text, controller) {
      buffer += text;
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const frame = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        if (frame.startsWith('data:')) controller.enqueue(frame.slice(5).trim());
        boundary = buffer.indexOf('\n\n');
      }
    },
  });
}

export async function callOnce(url, init = {}) {
  const res = await fetch(url, init);
  const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(sseEvents()).getReader();
  const messages = [];
  for (;;) {
    const { done, value } = await events.read();
    if (done) return messages;
    if (value === '[DONE]') {
      await events.cancel();
      return messages;
    }
    messages.push(JSON.parse(value));
  }
}
