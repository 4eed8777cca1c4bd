// node --test — the regression test a drain fix comes with (drainguard/testing, docs/testing.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectConnectionReuse, expectPromptReturn, expectedMessages } from 'drainguard/testing';
import { streamEvents } from '../chat-client.cjs';

test('20 streamed calls reuse one keep-alive connection', async () => {
  const report = await expectConnectionReuse(streamEvents, { calls: 20 });
  assert.deepEqual(report.results[19], expectedMessages(3));
});

test('a call returns promptly, and lets go of the body, whatever follows [DONE]', async () => {
  const returns = await expectPromptReturn(streamEvents, { withinMs: 2000 });
  assert.deepEqual(
    returns.map((r) => r.mode),
    ['silent', 'trickle', 'flood', 'endless', 'reset'],
  );
});
