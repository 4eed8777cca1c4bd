#!/usr/bin/env node
// The real-server probe, run as a child process by scripts/sdk-suites.mjs (so a hang is bounded
// there): `node probe.mjs <sdk name> <bundle.mjs> [holdMs] [calls]`. It imports the SDK bundled from
// its (rewritten) source and prints one JSON object:
//   hold   one call against a server that keeps the body open holdMs after [DONE]: how long the call
//          took to deliver all events and end, and when the server saw the body closed or ended;
//          then one more call: did it reuse the connection?
//   end    `calls` calls against a server that ends the body 5 ms after [DONE]: connections opened
//          (1 = keep-alive reuse every time) and per-call times
//   reset  one call against a server that resets the connection 5 ms after [DONE]: same events, no
//          error, no second request (nothing after the terminal event changes the outcome)
import { pathToFileURL } from 'node:url';
import { STREAMING_CALLS } from './probe-calls.mjs';
import { startProbeServer } from './probe-server.mjs';

const [name, bundle, holdArg = '4000', callsArg = '10'] = process.argv.slice(2);
const holdMs = Number(holdArg);
const calls = Number(callsArg);
const call = STREAMING_CALLS[name];
if (!call || !bundle) {
  process.stderr.write('usage: probe.mjs <openai-node|client-ts> <bundle.mjs> [holdMs] [calls]\n');
  process.exit(2);
}
const sdk = await import(pathToFileURL(bundle).href);
const EVENTS = 3;
const server = await startProbeServer({ events: EVENTS, holdMs });
const expected = Array.from({ length: EVENTS }, (_, i) => `event ${i}`);

/** One call: its duration, whether it delivered exactly the expected events, its error if any. */
async function timedCall() {
  const started = Date.now();
  try {
    const texts = await call(sdk, server.url);
    return { ms: Date.now() - started, events: texts.length, sameEvents: JSON.stringify(texts) === JSON.stringify(expected), error: null };
  } catch (error) {
    return { ms: Date.now() - started, events: 0, sameEvents: false, error: String(error?.message ?? error) };
  }
}

const settled = (record) => record.endedAt > 0 || record.closedAt > 0;

const result = { sdk: name, holdMs, calls };
try {
  server.setMode('hold');
  const held = await timedCall();
  await server.waitFor(() => settled(server.log()[0] ?? { endedAt: 0, closedAt: 0 }), holdMs + 5000).catch(() => {});
  const first = server.log()[0];
  server.setMode('end');
  const next = await timedCall();
  const second = server.log()[1];
  result.hold = {
    call: held,
    serverSaw: !first
      ? 'no request'
      : first.closedAt
        ? `closed by the client ${first.closedAt - first.terminalAt} ms after [DONE]`
        : first.endedAt
          ? `body ended by the server ${first.endedAt - first.terminalAt} ms after [DONE] (read to EOF)`
          : 'still open',
    closedAfterDoneMs: first?.closedAt ? first.closedAt - first.terminalAt : null,
    nextCall: next,
    nextCallReusedConnection: Boolean(first && second && first.socket === second.socket),
  };

  server.reset();
  server.setMode('end');
  const times = [];
  const errors = [];
  let sameEvents = true;
  for (let i = 0; i < calls; i++) {
    const one = await timedCall();
    times.push(one.ms);
    sameEvents &&= one.sameEvents;
    if (one.error) errors.push(one.error);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  result.end = {
    connections: server.connections(),
    requests: server.log().length,
    closedByClient: server.log().filter((r) => r.closedByClient).length,
    callMs: times,
    sameEvents,
    errors,
  };

  server.reset();
  server.setMode('reset');
  const reset = await timedCall();
  await new Promise((resolve) => setTimeout(resolve, 200));
  result.reset = { call: reset, requests: server.log().length };
} finally {
  await server.close();
}
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
