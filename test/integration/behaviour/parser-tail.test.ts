/**
 * A loop over a parser given the fetch Response: the rewrite hands the parser a stand-in and, after the terminal event,
 * drains the real body as raw bytes. The parser counts the frames it decodes; a long tail after [DONE] must not reach it.
 */
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyCodemod } from '../../support/codemod.mjs';
import { measureKeepAlive } from '../../support/keepalive.mjs';
import type { ClientFn } from '../../support/keepalive.d.mts';
import { expectedMessages } from '../../support/sse-server.mjs';

const CLIENT = fileURLToPath(new URL('./clients/parser-over-response.mjs', import.meta.url));
const CALLS = 20;
const EVENTS = 3;
const TAIL_FRAMES = 2000;
const BUDGET_MS = 200;
// Frames per call the parser decodes up to the terminal event: the events and [DONE].
const FRAMES_TO_TERMINAL = EVENTS + 1;
const TAIL = Array.from({ length: TAIL_FRAMES }, (_, i) => `data: {"index":${i},"text":"after the end"}\n\n`).join('');

/** The rewritten client's call and its parser's count, of one module: measureKeepAlive loads a path as a module of its own. */
async function fixedClient(budgetMs: number): Promise<{ callOnce: ClientFn; parseCount: () => number }> {
  const fixed = await applyCodemod(CLIENT, { transformOptions: { drainTimeoutMs: budgetMs } });
  expect(fixed.reason).toBeUndefined();
  expect(fixed.output).toContain('tapResponse(response)');
  const module = (await import(pathToFileURL(fixed.outPath!).href)) as { callOnce: ClientFn; parseCount: () => number };
  return { callOnce: module.callOnce, parseCount: module.parseCount };
}

describe('for await over a parser given the fetch Response', () => {
  it(`does not run the parser over a ${TAIL_FRAMES}-frame tail, and reuses the connection (at most two over ${CALLS} calls)`, async () => {
    const client = await fixedClient(1000);
    const measured = await measureKeepAlive(client.callOnce, {
      calls: CALLS,
      pauseMs: 25,
      server: { format: 'sse', events: EVENTS, tail: TAIL },
    });
    expect(measured.results).toEqual(Array.from({ length: CALLS }, () => expectedMessages(EVENTS, 'sse')));
    // The tail was read to its end (the connections went back to the pool), yet not one of its frames was decoded.
    expect(measured.connections).toBeLessThanOrEqual(2);
    expect(measured.closedByClient).toBe(0);
    expect(client.parseCount()).toBe(CALLS * FRAMES_TO_TERMINAL);
  });

  it('against a body that never ends, each call returns and the server sees the close within budget + margin', async () => {
    const client = await fixedClient(BUDGET_MS);
    const measured = await measureKeepAlive(client.callOnce, {
      calls: 2,
      server: { format: 'sse', events: EVENTS, mode: 'hang' },
      callTimeoutMs: BUDGET_MS + 4000,
      settleMs: BUDGET_MS + 200,
    });
    expect(measured.results).toEqual([expectedMessages(EVENTS, 'sse'), expectedMessages(EVENTS, 'sse')]);
    expect(measured.closedByClient).toBe(2);
    expect(client.parseCount()).toBe(2 * FRAMES_TO_TERMINAL);
  });
});
