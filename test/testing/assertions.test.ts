// expectConnectionReuse and expectPromptReturn (dist/testing.js) with real fetch clients: the
// early-close and hand-drained clients of bench/clients, the fixed client of docs/examples, and
// clients written here to fail one check each. Counts and messages are asserted, never durations.
import { AssertionError } from 'node:assert';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { expectConnectionReuse, expectPromptReturn, expectedMessages, startCountingServer } from '../support/testing-kit.mjs';

type Client = (url: string, init?: RequestInit, drainTimeoutMs?: number) => Promise<unknown[]>;
const benchClient = async (name: string) => ((await import(new URL(`../../bench/clients/${name}.mjs`, import.meta.url).href)) as { callOnce: Client }).callOnce;
const earlyClose = await benchClient('early-close');
const handDrained = await benchClient('hand-drained');
const { streamEvents } = createRequire(import.meta.url)('../../docs/examples/chat-client.cjs') as {
  streamEvents: (url: string, budgetMs?: number) => Promise<unknown[]>;
};

/** Reads to [DONE] and returns; drains the rest in the background with no bound at all. */
async function returnsButNeverLetsGo(url: string): Promise<string> {
  const reader = (await fetch(url)).body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('data: [DONE]')) text += decoder.decode((await reader.read()).value, { stream: true });
  void (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  return 'returned';
}

describe('expectConnectionReuse', () => {
  it('passes a client that reads each body to its end, with the counts and what each call returned', async () => {
    const report = await expectConnectionReuse((url) => handDrained(url), { calls: 10 });
    expect(report).toMatchObject({ calls: 10, requests: 10, closedEarly: 0, finished: 10 });
    expect(report.connections).toBeLessThanOrEqual(2);
    expect(report.results).toEqual(Array.from({ length: 10 }, () => expectedMessages(3)));
  });

  it('passes a client that hands the result over at [DONE] and drains after it (each call once the previous body ended)', async () => {
    const report = await expectConnectionReuse(streamEvents, { calls: 10, server: { tailDelayMs: 20 } });
    expect(report).toMatchObject({ requests: 10, closedEarly: 0 });
    expect(report.connections).toBeLessThanOrEqual(2);
  });

  it('fails an early close with the connections the server counted and what to do', async () => {
    const failure = await expectConnectionReuse((url) => earlyClose(url), { calls: 10, server: { tailDelayMs: 50 } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AssertionError);
    const { message, actual, expected } = failure as AssertionError;
    const match =
      /^expected 10 calls to reuse their connection \(at most 2 connections\), but the server accepted (\d+) TCP connections and closed (\d+) of the 10 response bodies before their end: read each body to its end after the terminal event \(a drain bounded by time and bytes\) so the connection goes back to the pool$/.exec(
        message,
      );
    expect(match, message).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(8);
    expect(Number(match![2])).toBeGreaterThanOrEqual(5);
    expect([actual, expected]).toEqual([Number(match![1]), 2]);
  });

  it('uses a server it is given (its counts reset first) and leaves it open', async () => {
    await using server = await startCountingServer({
      handle(_req, res) {
        res.end('data: [DONE]\n\n');
      },
    });
    await fetch(server.url).then((response) => response.text());
    const report = await expectConnectionReuse((url) => fetch(url).then((response) => response.text()), { calls: 5, server, maxConnections: 1 });
    expect(report).toMatchObject({ calls: 5, connections: 1, requests: 5, finished: 5 });
    expect(server.stats().requests).toBe(5);
  });

  it('reports a call that fails or hangs, by number', async () => {
    await expect(expectConnectionReuse(() => Promise.reject(new Error('boom')), { calls: 3 })).rejects.toThrow(
      new AssertionError({ message: 'call 1 of 3 failed: Error: boom' }),
    );
    await expect(expectConnectionReuse(() => new Promise(() => {}), { calls: 3, callTimeoutMs: 50 })).rejects.toThrow('call 1 of 3 did not return within 50 ms');
  });
});

describe('expectPromptReturn', () => {
  it('passes a bounded drain against every hostile body, in order, with what each call returned', async () => {
    const returns = await expectPromptReturn((url) => handDrained(url, {}, 100), { modes: ['silent', 'trickle', 'flood'] });
    expect(returns.map(({ mode, value }) => ({ mode, value }))).toEqual(
      ['silent', 'trickle', 'flood'].map((mode) => ({ mode, value: expectedMessages(3) })),
    );
  });

  it('passes the fixed client of docs/examples against all five, reset included', async () => {
    const returns = await expectPromptReturn((url) => streamEvents(url, 100));
    expect(returns.map((r) => r.mode)).toEqual(['silent', 'trickle', 'flood', 'endless', 'reset']);
  });

  it.each([
    ['silent', 'a body held open silently after its terminal event', 'by time'],
    ['trickle', 'a body that trickles keep-alive comments after its terminal event', 'by time'],
  ] as const)('fails an unbounded drain against %s: the call does not return', async (mode, body, bound) => {
    await expect(expectPromptReturn((url) => handDrained(url, {}, 0), { modes: [mode], withinMs: 300 })).rejects.toThrow(
      new AssertionError({ message: `against ${body}, the call did not return within 300 ms: bound the drain after the terminal event ${bound}` }),
    );
  });

  it('fails a drain that lets a read error after the terminal event reach the caller', async () => {
    await expect(expectPromptReturn((url) => handDrained(url, {}, 1000), { modes: ['reset'] })).rejects.toThrow(
      new AssertionError({
        message: 'against a connection reset after the terminal event, the call failed (TypeError: terminated): an error after the terminal event must not reach the caller',
      }),
    );
  });

  it('fails a client that returns but never lets go of the body', async () => {
    await expect(expectPromptReturn(returnsButNeverLetsGo, { modes: ['silent'], withinMs: 1500 })).rejects.toThrow(
      new AssertionError({
        message: 'against a body held open silently after its terminal event, the call returned but still held the body open 1500 ms later: the drain needs a time budget that closes the body',
      }),
    );
  });

  it('rejects an unknown mode', async () => {
    await expect(expectPromptReturn(returnsButNeverLetsGo, { modes: ['hang' as never] })).rejects.toThrow(
      new RangeError("expectPromptReturn: unknown mode 'hang' (use silent, trickle, flood, endless, reset)"),
    );
  });
});
