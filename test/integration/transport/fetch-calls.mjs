// Run by node-versions.test.ts under Node 20 and Node 22, with `--import drainguard/undici/register` (the built
// dist/undici-register.js): the built-in fetch of that Node (its own bundled undici calls the handler) against the
// stream server. Prints what the server counted as JSON.
import { startStreamServer } from '../../../dist/testing.js';

const GLOBAL = Symbol.for('undici.globalDispatcher.1');

async function readToDone(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('[DONE]')) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the body ended before [DONE]');
    text += decoder.decode(value, { stream: true });
  }
  return reader;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const out = { node: process.version, bundledUndici: process.versions.undici, dispatcher: globalThis[GLOBAL]?.constructor?.name ?? null };

// A body that ends 100 ms after [DONE]: 5 calls, each cancelled at [DONE], each after the previous body is over.
{
  const server = await startStreamServer({ mode: 'end', tailDelayMs: 100 });
  for (let call = 1; call <= 5; call++) {
    const reader = await readToDone(await fetch(server.url));
    await reader.cancel();
    await server.waitFor((s) => s.finished + s.closedEarly >= call, 10_000);
    await settle();
  }
  out.end = server.stats();
  await server.close();
}

// A held body: the cancel returns while the body is open; the drain gives up at DRAINGUARD_DRAIN_TIMEOUT_MS.
{
  const server = await startStreamServer({ mode: 'silent' });
  const reader = await readToDone(await fetch(server.url));
  await reader.cancel();
  out.heldOpenAfterCancel = server.stats().closedEarly === 0;
  await server.waitFor((s) => s.closedEarly === 1, 10_000);
  out.silent = server.stats();
  await server.close();
}

// The request's AbortSignal mid-stream: the pending read rejects with the reason itself.
{
  const server = await startStreamServer({ mode: 'end', events: 10, eventDelayMs: 10, tailDelayMs: 0 });
  const controller = new AbortController();
  const response = await fetch(server.url, { signal: controller.signal });
  const reader = response.body.getReader();
  await reader.read();
  const pending = reader.read();
  const reason = new Error('stop');
  controller.abort(reason);
  out.sameReason = await pending.then(
    () => false,
    (error) => error === reason,
  );
  await server.waitFor((s) => s.finished + s.closedEarly === 1, 10_000);
  await settle();
  const next = await readToDone(await fetch(server.url));
  await next.cancel();
  await server.waitFor((s) => s.finished + s.closedEarly === 2, 10_000);
  out.signal = server.stats();
  await server.close();
}

process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
