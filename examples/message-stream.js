// An Anthropic-style messages client over newline-delimited JSON events.
// Leaving the `for await` loop with `break` calls the iterator's return(), which cancels
// the response body before EOF: the connection is destroyed instead of reused.

async function* ndjson(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield JSON.parse(line);
    }
  }
}

export async function collectMessage(baseUrl, request) {
  const response = await fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...request, stream: true }),
  });
  let text = '';
  for await (const event of ndjson(response.body)) {
    if (event.type === 'content_block_delta') text += event.delta.text;
    if (event.type === 'message_stop') break;
  }
  return text;
}
