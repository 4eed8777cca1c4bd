// A parser generator given a value the rewrite cannot prove is a fetch Response (it comes from a fetch the caller may
// replace), with the request's controller in scope: the drain reads on through the parser's messages, so it is
// bounded by time only (a tenth of the budget).
async function* parseSSE(response) {
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

export async function callOnce(url, init = {}) {
  const { fetch: fetchImpl = fetch, ...rest } = init;
  const controller = new AbortController();
  const response = await fetchImpl(url, { ...rest, signal: controller.signal });
  const messages = [];
  for await (const sse of parseSSE(response)) {
    if (sse.data === '[DONE]') break;
    messages.push(JSON.parse(sse.data));
  }
  return messages;
}
