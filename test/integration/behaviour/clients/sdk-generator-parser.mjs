// An SDK-style stream (the shape of openai-node's Stream.fromSSEResponse): an async generator runs
// `for await` over an SSE parser built on the response and its AbortController, breaks at [DONE],
// treats errors after the sentinel as non-fatal and aborts in `finally` when the consumer leaves early.
async function* iterSSEMessages(response, controller) {
  if (!response.body) {
    controller.abort();
    throw new Error('no body');
  }
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const frame = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      if (frame.startsWith('data:')) yield { data: frame.slice(5).trim() };
      boundary = buffer.indexOf('\n\n');
    }
  }
}

function streamFrom(response, controller) {
  async function* iterator() {
    let done = false;
    let receivedCompletionSentinel = false;
    try {
      for await (const sse of iterSSEMessages(response, controller)) {
        if (sse.data === '[DONE]') {
          receivedCompletionSentinel = true;
          break;
        }
        yield JSON.parse(sse.data);
      }
      done = true;
    } catch (error) {
      if (receivedCompletionSentinel || controller.signal.aborted) return;
      throw error;
    } finally {
      if (!done) controller.abort();
    }
  }
  return iterator();
}

export async function callOnce(url, init = {}) {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const messages = [];
  for await (const message of streamFrom(response, controller)) messages.push(message);
  return messages;
}
