// Node's http client: `for await` over the IncomingMessage, and the `return` at [DONE] sits in an
// inner loop over the frames of a chunk (the most common SSE shape).
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });

function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, resolve).on('error', reject);
  });
}

export async function callOnce(url) {
  const res = await get(url);
  const messages = [];
  let buffer = '';
  for await (const chunk of res) {
    buffer += chunk.toString('utf8');
    const frames = buffer.split('\n\n');
    buffer = frames.pop() ?? '';
    for (const frame of frames) {
      if (!frame.startsWith('data:')) continue;
      const data = frame.slice(5).trim();
      if (data === '[DONE]') return messages;
      messages.push(JSON.parse(data));
    }
  }
  throw new Error('the stream ended without [DONE]');
}
