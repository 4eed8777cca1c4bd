#!/usr/bin/env node
// The real-server probe, run as a child process by scripts/sdk-suites.mjs (so a hang is bounded
// there): `node probe.mjs <sdk name> <bundle.mjs> [holdMs] [calls]`. It imports the SDK bundled from
// its (rewritten) source and prints one JSON object:
//   hold   one call against a server that keeps the body open holdMs after [DONE]: how long the call
//          took to deliver all events and to end, and whether the server saw the body closed by the
//          client (and when) or read to EOF
//   end    `calls` calls against a fresh server that ends the body 5 ms after [DONE]: connections it
//          accepted (keep-alive: 1 or 2, since undici alternates between two pooled sockets for
//          back-to-back calls; an early close: about one per call) and per-call times; once with
//          the calls back to back, once 50 ms apart (endPaced)
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
const PACED_PAUSE_MS = 50;
const expected = Array.from({ length: EVENTS }, (_, i) => `event ${i}`);

/**
 * One call: when its last event was delivered and when it ended (ms from its start), whether it
 * delivered exactly the expected events, whether it opened a new connection, its error if any.
 * @param {import('./probe-server.d.mts').ProbeServer} server
 */
async function timedCall(server) {
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

/** Each scenario gets a fresh server (and so counts its own connections from zero). */
async function withServer(mode, scenario) {
  const server = await startProbeServer({ events: EVENTS, holdMs });
  server.setMode(mode);
  try {
    return await scenario(server);
  } finally {
    await server.close();
  }
}

const result = { sdk: name, holdMs, calls };

result.hold = await withServer('hold', async (server) => {
  const held = await timedCall(server);
  const settled = () => server.log()[0] !== undefined && (server.log()[0].endedAt > 0 || server.log()[0].closedAt > 0);
  await server.waitFor(settled, holdMs + 5000).catch(() => {});
  const [first] = server.log();
  return {
    call: held,
    serverSaw: !first
      ? 'no request'
      : first.closedAt
        ? `closed by the client ${first.closedAt - first.terminalAt} ms after [DONE]`
        : first.endedAt
          ? `read to EOF (the server ended the body ${first.endedAt - first.terminalAt} ms after [DONE])`
          : 'still open',
    closedAfterDoneMs: first?.closedAt ? first.closedAt - first.terminalAt : null,
  };
});

/** `calls` calls against a fresh server that ends each body 5 ms after [DONE], `pauseMs` apart. */
const endScenario = (pauseMs) =>
  withServer('end', async (server) => {
    const times = [];
    const errors = [];
    let sameEvents = true;
    for (let i = 0; i < calls; i++) {
      if (i > 0 && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const one = await timedCall(server);
      times.push(one.ms);
      sameEvents &&= one.sameEvents;
      if (one.error) errors.push(one.error);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    return {
      pauseMs,
      connections: server.connections(),
      requests: server.log().length,
      closedByClient: server.log().filter((r) => r.closedByClient).length,
      callMs: times,
      sameEvents,
      errors,
    };
  });

result.end = await endScenario(0);
// A detached drain may still be reading the 5 ms tail when a back-to-back call starts (undici then
// opens another connection); 50 ms apart shows the steady state.
result.endPaced = await endScenario(PACED_PAUSE_MS);

result.reset = await withServer('reset', async (server) => {
  const reset = await timedCall(server);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { call: reset, requests: server.log().length };
});

process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
