/**
 * The helper module on real web streams, as `fix` writes it. Its tap holds the body's reader while the parser (through
 * its stand-in) or the drain reads, and lets go of it as the body's own iterator does: code that checks `body.locked`
 * after a stream ends, is cancelled or is drained sees the body free (openai-node's suite asserts it). A loop over an
 * iterable of a body that has no destroy() (Fern's browser path wraps the body's reader in its own {next, return}) is
 * still bounded: past the budget the drain ends the pending read through the iterable's return().
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helperModuleText } from '../../../rules/fix/helper-module.js';
import { detectStyle } from '../../../rules/fix/style.js';
import { drainBounds } from '../../../rules/contract/drain-options.js';

interface Tapped {
  body: ReadableStream<Uint8Array>;
  drain: () => Promise<void>;
}
interface Helpers {
  tapBody: (body: ReadableStream<Uint8Array>) => Tapped;
  drainableBody: (body: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array> & { drainInBackground: () => void };
}

const MAX_BYTES = 1024;
const SHORT_BUDGET_MS = 100;
const dir = mkdtempSync(join(tmpdir(), 'drainguard-helper-streams-'));
let helpers: Helpers;
let shortBudget: Helpers;

async function helperModule(name: string, drainTimeoutMs: number): Promise<Helpers> {
  const path = join(dir, name);
  writeFileSync(path, helperModuleText(['tapBody', 'drainableBody'], detectStyle('export const a = 1;\n', false), drainBounds({ drainTimeoutMs, drainMaxBytes: MAX_BYTES })));
  return (await import(pathToFileURL(path).href)) as Helpers;
}

beforeAll(async () => {
  helpers = await helperModule('drain-body.mjs', 60_000);
  shortBudget = await helperModule('drain-body-short.mjs', SHORT_BUDGET_MS);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A body of `chunks` chunks of 100 bytes, then its end (or, with `endless`, more chunks for as long as it is read). */
function body(chunks: number, endless = false): { stream: ReadableStream<Uint8Array>; cancelled: unknown[] } {
  const cancelled: unknown[] = [];
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent++ < chunks || endless) controller.enqueue(new Uint8Array(100));
        else controller.close();
      },
      cancel(reason) {
        cancelled.push(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, cancelled };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stream.getReader();
  let count = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) count++;
  return count;
}

describe('tapBody', () => {
  it('a parser that reads the stand-in to its end leaves the body unlocked', async () => {
    const { stream, cancelled } = body(3);
    const tapped = helpers.tapBody(stream);
    expect(stream.locked).toBe(true);
    expect(await readAll(tapped.body)).toBe(3);
    expect(stream.locked).toBe(false);
    expect(cancelled).toEqual([]);
  });

  it("a parser that cancels the stand-in cancels the body with its reason, once, and unlocks it", async () => {
    const { stream, cancelled } = body(3);
    const tapped = helpers.tapBody(stream);
    const reader = tapped.body.getReader();
    await reader.read();
    await reader.cancel('consumer left');
    expect(cancelled).toEqual(['consumer left']);
    expect(stream.locked).toBe(false);
  });

  it('a drain to the end leaves the body unlocked, not cancelled', async () => {
    const { stream, cancelled } = body(5);
    const tapped = helpers.tapBody(stream);
    await tapped.body.getReader().read();
    await tapped.drain();
    expect(stream.locked).toBe(false);
    expect(cancelled).toEqual([]);
  });

  it('a drain past its byte limit cancels the body and unlocks it', async () => {
    const { stream, cancelled } = body(0, true);
    const tapped = helpers.tapBody(stream);
    await tapped.drain();
    expect(cancelled).toHaveLength(1);
    expect(stream.locked).toBe(false);
  });
});

describe('drainableBody over a web stream', () => {
  it('a loop that leaves early without the hand-off cancels the body and unlocks it', async () => {
    const { stream, cancelled } = body(5);
    for await (const chunk of helpers.drainableBody(stream)) {
      expect(chunk.byteLength).toBe(100);
      break;
    }
    expect(cancelled).toHaveLength(1);
    expect(stream.locked).toBe(false);
  });

  it('a loop that hands off reads the rest in the background and unlocks the body at its end', async () => {
    const { stream, cancelled } = body(5);
    const events = helpers.drainableBody(stream);
    for await (const chunk of events) {
      expect(chunk.byteLength).toBe(100);
      events.drainInBackground();
      break;
    }
    await expect.poll(() => stream.locked).toBe(false);
    expect(cancelled).toEqual([]);
  });
});

describe('drainableBody over an iterable of a reader, with no destroy() (a browser polyfill)', () => {
  it('a body held open after the hand-off is cancelled through the iterable once the budget runs out', async () => {
    let cancelled = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(100));
        // Nothing more, and no end: the body is held open.
      },
      cancel() {
        cancelled++;
      },
    });
    const reader = stream.getReader();
    const polyfill: AsyncIterableIterator<Uint8Array> = {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await reader.cancel();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    const events = shortBudget.drainableBody(polyfill);
    for await (const chunk of events) {
      expect(chunk.byteLength).toBe(100);
      events.drainInBackground();
      break;
    }
    expect(cancelled).toBe(0);
    await expect.poll(() => cancelled, { timeout: SHORT_BUDGET_MS + 5000 }).toBe(1);
  });
});
