// A parser generator over the response (it takes the fetch Response and reads its body), the loop breaks
// at [DONE]. The parser counts the frames it decodes, so a test can see whether anything after the
// terminal event was run through it.
let parsed = 0;

/** Frames decoded by the parser since the module was loaded. */
export function parseCount() {
  return parsed;
}

async function* parseSSE(response) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary = buffer.indexOf('\n\n');
    while (boundary >= 0) {
      const frame = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      parsed++;
      if (frame.startsWith('data:')) yield { data: frame.slice(5).trim() };
      boundary = buffer.indexOf('\n\n');
    }
  }
}

export async function callOnce(url, init = {}) {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const messages = [];
  for await (const sse of parseSSE(response)) {
    if (sse.data === '[DONE]') break;
    messages.push(JSON.parse(sse.data));
  }
  return messages;
}
