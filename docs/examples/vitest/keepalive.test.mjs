// npx vitest run — the regression test a drain fix comes with (drainguard/testing, docs/testing.md).
import { expect, test } from 'vitest';
import { expectConnectionReuse, expectPromptReturn, expectedMessages } from 'drainguard/testing';
import { streamEvents } from '../chat-client.cjs';

test('20 streamed calls reuse one keep-alive connection', async () => {
  const report = await expectConnectionReuse(streamEvents, { calls: 20 });
  expect(report.results[19]).toEqual(expectedMessages(3));
});

test('a call returns promptly, and lets go of the body, whatever follows [DONE]', async () => {
  const returns = await expectPromptReturn(streamEvents, { withinMs: 2000 });
  expect(returns.map((r) => r.mode)).toEqual(['silent', 'trickle', 'flood', 'endless', 'reset']);
});
