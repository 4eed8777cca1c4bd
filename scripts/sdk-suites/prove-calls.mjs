#!/usr/bin/env node
// The command `drainguard prove` runs for an SDK (scripts/sdk-suites/prove.mjs):
// `node prove-calls.mjs <sdk name> <bundle.mjs>` makes $DRAINGUARD_CALLS streaming calls, one after
// the other, through the SDK bundled from its source (pristine or rewritten), against $DRAINGUARD_URL,
// with Node's own fetch. It exits 1 when a call fails or delivers other messages than the probe
// expects (prove counts that as a failed run), so an error after the terminal event that reaches the
// caller shows in the table.
import { pathToFileURL } from 'node:url';
import { PROBES } from './probe-calls.mjs';

const [name, bundle] = process.argv.slice(2);
const probe = PROBES[name];
const url = process.env.DRAINGUARD_URL;
if (!probe || probe.peers.length !== 1 || !bundle || !url) {
  process.stderr.write('usage: DRAINGUARD_URL=... DRAINGUARD_CALLS=N prove-calls.mjs <sdk with a one-peer probe> <bundle.mjs>\n');
  process.exit(2);
}
const sdk = await import(pathToFileURL(bundle).href);
const calls = Number(process.env.DRAINGUARD_CALLS ?? '10');
const urls = { [probe.peers[0].name]: url.replace(/\/$/, '') };
for (let i = 0; i < calls; i++) {
  const messages = [];
  await probe.call(sdk, { urls, fetch: undefined }, (text) => messages.push(text));
  if (JSON.stringify(messages) !== JSON.stringify(probe.expected)) {
    process.stderr.write(`call ${i + 1}: delivered ${JSON.stringify(messages)}, expected ${JSON.stringify(probe.expected)}\n`);
    process.exit(1);
  }
}
