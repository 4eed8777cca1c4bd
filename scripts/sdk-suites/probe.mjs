#!/usr/bin/env node
// The real-server probe, run as a child process by scripts/sdk-suites.mjs (so a hang is bounded
// there): `node probe.mjs <sdk name> <bundle.mjs> <calls> <testing.js>` imports the SDK bundled from
// its source (pristine or rewritten) and drainguard's stream server (testing.js, the built
// `drainguard/testing`), and prints one JSON object (see ProbeResult in probe.d.mts).
//
// For each caller of the SDK's probe (Node's fetch, node-fetch 2), each body the stream server offers
// after the terminal event (end, silent, trickle, flood, endless, reset) and each pace (the calls back
// to back, then 50 ms apart), `calls` calls on fresh servers, and per scenario:
//   - the connections the servers accepted and the requests they got;
//   - per call: the messages it delivered, its error, the caller's wait (from the moment the server
//     wrote the terminal event, RequestRecord.terminalAt, to the moment the call returned) and the
//     body bytes the client read after the terminal event (counted where fetch or node-fetch receives
//     them, a drain that goes on after the call returned included: see probe-bytes.mjs);
//   - when the server saw each body end or closed, after its terminal event, and the bodies still
//     open once every drain should have ended (the time budget, plus a margin);
//   - unhandled rejections and uncaught exceptions the scenario caused.
// The optional last argument runs only the rows it names (`native/flood,node-fetch/silent`): the
// harness measures again a row that was worse only by the caller's wait or the bytes read.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import nodeFetch from 'node-fetch';
import { bodyCounter, countingDispatcher, countingHttpAgent, setGlobalDispatcher } from './probe-bytes.mjs';
import { BODY_MODES, PACED_PAUSE_MS, PROBES } from './probe-calls.mjs';

/** How long after its terminal event a body that ends ('end') or resets ('reset') does so. */
const TAIL_DELAY_MS = 20;
/** A held body (silent, trickle, after a flood) is destroyed by the server after this long: far past any drain's budget. */
const HOLD_MAX_MS = 30_000;
/** How long after the last call every body must have ended or been closed. */
const SETTLE_MS = 5_000;

const [name, bundle, callsArg, testingModule, onlyArg] = process.argv.slice(2);
const only = onlyArg ? new Set(onlyArg.split(',')) : null;
const probe = PROBES[name];
if (!probe || !bundle || !testingModule) {
  process.stderr.write(`usage: probe.mjs <${Object.keys(PROBES).join('|')}> <bundle.mjs> <calls> <testing.js> [caller/mode,...]\n`);
  process.exit(2);
}
const calls = Number(callsArg ?? '10');
const { startStreamServer } = await import(pathToFileURL(testingModule).href);
const sdk = await import(pathToFileURL(bundle).href);

/** The terminal event's text on the wire, as the stream server writes it (an SSE `data:` event). */
const sseFrame = (payload) =>
  `${(typeof payload === 'string' ? payload : JSON.stringify(payload))
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('')}\n`;
const terminalFrames = probe.peers.map((peer) => sseFrame(peer.terminal ?? '[DONE]'));

/** @type {string[]} what went unhandled during the current scenario */
let problems = [];
process.on('unhandledRejection', (reason) => problems.push(`unhandled rejection: ${describe(reason)}`));
process.on('uncaughtException', (error) => problems.push(`uncaught exception: ${describe(error)}`));

/** @param {unknown} error */
function describe(error) {
  const e = /** @type {any} */ (error);
  const cause = e?.cause ? ` (cause: ${e.cause?.code ?? e.cause?.message ?? e.cause})` : '';
  return `${e?.name ?? 'Error'}: ${String(e?.message ?? e).split('\n')[0]}${cause}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The caller's fetch and how to put it away. @param {string} caller @param {ReturnType<typeof bodyCounter>} counter */
async function callerFetch(caller, counter) {
  if (caller === 'native') {
    const agent = await countingDispatcher(counter);
    const previous = setGlobalDispatcher(agent);
    return {
      fetch: undefined,
      async close() {
        setGlobalDispatcher(previous);
        await agent.destroy();
      },
    };
  }
  if (caller === 'node-fetch') {
    const agent = countingHttpAgent(counter);
    return {
      fetch: /** @type {typeof fetch} */ (/** @type {unknown} */ ((url, init) => nodeFetch(url, { ...init, agent }))),
      async close() {
        agent.destroy();
      },
    };
  }
  throw new Error(`unknown caller ${caller}`);
}

/**
 * `calls` calls, `pauseMs` apart, against fresh servers whose first one does `mode` after the terminal event.
 * @param {string} caller @param {string} mode @param {number} pauseMs
 */
async function scenario(caller, mode, pauseMs) {
  /** @type {Record<string, any>} */
  const servers = {};
  for (const [i, peer] of probe.peers.entries()) {
    servers[peer.name] = await startStreamServer({
      mode: i === 0 ? mode : 'end',
      format: 'sse',
      events: peer.events,
      terminal: peer.terminal,
      tailDelayMs: TAIL_DELAY_MS,
      holdMaxMs: HOLD_MAX_MS,
    });
  }
  const main = servers[probe.peers[0].name];
  const urls = Object.fromEntries(Object.entries(servers).map(([peer, server]) => [peer, server.url]));
  const counter = bodyCounter(terminalFrames);
  const client = await callerFetch(caller, counter);
  problems = [];
  const records = [];
  for (let i = 0; i < calls; i++) {
    if (i > 0 && pauseMs > 0) await sleep(pauseMs);
    counter.setCall(i);
    const firstRequest = main.log().length;
    /** @type {string[]} */
    const messages = [];
    let error = null;
    try {
      await probe.call(sdk, { urls, fetch: client.fetch }, (text) => messages.push(text));
    } catch (caught) {
      error = describe(caught);
    }
    records.push({ messages, error, returnedAt: performance.now(), firstRequest });
  }
  counter.setCall(-1);
  const everyBodyEnded = () => Object.values(servers).every((server) => server.log().every((r) => r.endedAt !== undefined));
  const deadline = performance.now() + SETTLE_MS;
  while (!everyBodyEnded() && performance.now() < deadline) await sleep(20);
  await sleep(50);

  const log = main.log();
  const result = {
    connections: Object.values(servers).reduce((n, server) => n + server.stats().connections, 0),
    requests: Object.values(servers).reduce((n, server) => n + server.stats().requests, 0),
    openAtEnd: Object.values(servers).reduce((n, server) => n + server.log().filter((r) => r.endedAt === undefined).length, 0),
    closedEarly: log.filter((r) => r.closedEarly).length,
    letGoMs: log.filter((r) => r.terminalAt !== undefined && r.endedAt !== undefined).map((r) => Math.round(r.endedAt - r.terminalAt)),
    calls: records.map((record, i) => {
      const next = records[i + 1]?.firstRequest ?? log.length;
      const terminal = log.slice(record.firstRequest, next).find((r) => r.terminalAt !== undefined);
      const afterTerminal = counter.bodies.filter((body) => body.call === i).map((body) => body.afterTerminal ?? 0);
      return {
        messages: record.messages,
        error: record.error,
        waitMs: terminal ? Math.max(0, Math.round((record.returnedAt - terminal.terminalAt) * 10) / 10) : null,
        bytesAfterTerminal: afterTerminal.reduce((sum, n) => sum + n, 0),
      };
    }),
    unhandled: problems,
  };
  await client.close();
  for (const server of Object.values(servers)) await server.close();
  return result;
}

const result = { sdk: name, calls, pausedMs: PACED_PAUSE_MS, tailDelayMs: TAIL_DELAY_MS, expected: probe.expected, callers: {} };
for (const caller of probe.callers) {
  const modes = {};
  for (const mode of BODY_MODES) {
    if (only && !only.has(`${caller}/${mode}`)) continue;
    modes[mode] = { backToBack: await scenario(caller, mode, 0), paced: await scenario(caller, mode, PACED_PAUSE_MS) };
  }
  result.callers[caller] = modes;
}
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
