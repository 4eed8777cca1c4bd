// One vocabulary for both front ends: the same terminal events are terminal in the JavaScript rule and in the
// Python front end.
import { describe, expect, it } from 'vitest';
import { lintPythonText } from '../../rules/python/lint.js';
import { lintText } from '../support/lint-text.js';

describe('the shared vocabulary', () => {
  it.each([
    ['message_stop', true],
    ['[DONE]', true],
    ['response.completed', true],
    ['error', false],
    ['delta', false],
    ['server_stopped', false],
    ['stream stopped unexpectedly', false],
    ['worker_stop', false],
    ['stream_stopped', true],
  ])('a test on the event %j is terminal in both front ends: %s', async (event, terminal) => {
    const js = `export async function f(url) {\n  const res = await fetch(url);\n  const reader = res.body.getReader();\n  while (true) {\n    const { value } = await reader.read();\n    if (value === ${JSON.stringify(event)}) {\n      await reader.cancel();\n      return;\n    }\n  }\n}\n`;
    const py = `async def f(response):\n    async for value in response.aiter_lines():\n        if value == ${JSON.stringify(event)}:\n            await response.aclose()\n            return\n`;
    expect(lintText(js, 'f.js').length).toBe(terminal ? 1 : 0);
    expect((await lintPythonText(py)).messages.length).toBe(terminal ? 1 : 0);
  });
});

describe('the peer going away is a failure, not the end of the stream', () => {
  it('a return on a constant naming the server as stopped (gradio_client) is an error close', async () => {
    const py = [
      'def listen(client, url):',
      '    with client.stream("GET", url) as response:',
      '        for line in response.iter_lines():',
      '            resp = json.loads(line)',
      '            if resp.get("message", "") == ServerMessage.server_stopped:',
      '                return',
      '            if resp["msg"] == ServerMessage.process_completed:',
      '                return',
      '',
    ].join('\n');
    expect((await lintPythonText(py)).messages.map((message) => [message.line, message.column])).toEqual([[8, 17]]);
  });
});
