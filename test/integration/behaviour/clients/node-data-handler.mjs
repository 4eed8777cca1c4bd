// Node's http client with a 'data' handler: at [DONE] it destroys the response and resolves with what it has;
// its 'end' and 'error' handlers reject.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });

export function callOnce(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      const messages = [];
      let buffer = '';
      res.on('data', (chunk) => {
        buffer += chunk.toString('utf8');
        const frames = buffer.split('\n\n');
        buffer = frames.pop() ?? '';
        for (const frame of frames) {
          if (!frame.startsWith('data:')) continue;
          const data = frame.slice(5).trim();
          if (data === '[DONE]') {
            res.destroy();
            resolve(messages);
            return;
          }
          messages.push(JSON.parse(data));
        }
      });
      res.on('end', () => reject(new Error('the stream ended without [DONE]')));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
