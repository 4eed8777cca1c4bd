#!/usr/bin/env node
// The real-server probe, run as a child process by scripts/sdk-suites.mjs (so a hang is bounded
// there): `node probe.mjs <sdk name> <bundle.mjs> [holdMs] [calls]`. It imports the SDK bundled from
// its (rewritten) source and prints one JSON object:
//   hold   one call against a server that keeps the body open holdMs after [DONE]: how long the call
//          took to deliver all events and end, and when the server saw the body closed or ended;
//          then one more call: did it reuse a pooled connection (no new connection accepted)?
//   end    `calls` calls against a server that ends the body 5 ms after [DONE]: connections opened
//          during them (0 or 1 = keep-alive reuse; undici may also open a spare) and per-call times
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

/**
 * One call: when its last event was delivered and when it ended (ms from its start), whether it
 * delivered exactly the expected events, whether it opened a new connection, its error if any.
 */
async function timedCall() {
  const started = Date.now();
  const connectionsBefore = server.connections();
  const texts = [];
  let lastEventMs = null;
  let error = null;
  try {
    await call(sdk, server.url, (text) => {
      texts.push(text);
      lastEventMs = Date.now() - started;
    });
  } catch (caught) {
    error = String(caught?.message ?? caught);
  }
  return {
    ms: Date.now() - started,
    lastEventMs,
    events: texts.length,
    sameEvents: JSON.stringify(texts) === JSON.stringify(expected),
    newConnection: server.connections() > connectionsBefore,
    error,
  };
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
    nextCallReusedConnection: !next.newConnection,
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
