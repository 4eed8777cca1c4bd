// An OpenAI-style chat completion client that reads server-sent events.
// It cancels the body as soon as it sees the `[DONE]` sentinel: the server may still
// send the final chunk terminator, so the socket cannot go back to the keep-alive pool.

export interface ChatChunk {
  choices: { delta: { content?: string } }[];
}

export async function streamChat(baseUrl: string, prompt: string, onToken: (token: string) => void): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: prompt }] }),
  });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);

  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue;
      const data = line.slice('data: '.length);
      if (data === '[DONE]') {
        await reader.cancel();
        return;
      }
      const chunk = JSON.parse(data) as ChatChunk;
      onToken(chunk.choices[0]?.delta.content ?? '');
    }
  }
}
