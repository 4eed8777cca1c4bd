// The same SSE client written correctly: after `[DONE]` it remembers the terminal event
// and keeps reading to EOF, so the connection returns to the pool. If EOF does not come
// within a small budget, or the tail runs past a byte limit, it falls back to the
// original cancel. The answer is complete at `[DONE]`: an error while draining (a reset)
// is not the caller's.

const DRAIN_TIMEOUT_MS = 1000;
const DRAIN_MAX_BYTES = 128 * 1024;

export async function streamChatDrained(baseUrl: string, prompt: string, onToken: (token: string) => void): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: prompt }] }),
  });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);

  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let sawTerminalEvent = false;
  let drainedBytes = 0;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = (): void => {
    reader.cancel().catch(() => {});
  };
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (sawTerminalEvent) {
        drainedBytes += value.byteLength;
        if (drainedBytes > DRAIN_MAX_BYTES) giveUp();
        continue;
      }
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data: ')) continue;
        const data = line.slice('data: '.length);
        if (data === '[DONE]') {
          sawTerminalEvent = true;
          drainTimer = setTimeout(giveUp, DRAIN_TIMEOUT_MS);
          break;
        }
        onToken(JSON.parse(data).choices[0]?.delta.content ?? '');
      }
    }
  } catch (error) {
    if (!sawTerminalEvent) throw error;
  } finally {
    clearTimeout(drainTimer);
  }
}
