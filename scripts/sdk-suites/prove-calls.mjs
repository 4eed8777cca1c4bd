#!/usr/bin/env node
// The command `drainguard prove` runs for an SDK (scripts/sdk-suites/prove.mjs):
// `node prove-calls.mjs <sdk name> <bundle.mjs>` makes $DRAINGUARD_CALLS streaming calls, one after
// the other, through the SDK bundled from its (rewritten) source, against $DRAINGUARD_URL. It exits 1
// when a call fails or delivers other events than the server's script (prove counts that as a failed
// run), so an error after the terminal event that reaches the caller shows in the table.
import { pathToFileURL } from 'node:url';
import { STREAMING_CALLS } from './probe-calls.mjs';
import { PROVE_EVENT_TEXTS } from './prove-script.mjs';

const [name, bundle] = process.argv.slice(2);
const call = STREAMING_CALLS[name];
const url = process.env.DRAINGUARD_URL;
if (!call || !bundle || !url) {
  process.stderr.write('usage: DRAINGUARD_URL=... DRAINGUARD_CALLS=N prove-calls.mjs <openai-node|client-ts> <bundle.mjs>\n');
  process.exit(2);
}
const sdk = await import(pathToFileURL(bundle).href);
const calls = Number(process.env.DRAINGUARD_CALLS ?? '10');
for (let i = 0; i < calls; i++) {
  const texts = [];
  await call(sdk, url, (text) => texts.push(text));
  if (JSON.stringify(texts) !== JSON.stringify(PROVE_EVENT_TEXTS)) {
    process.stderr.write(`call ${i + 1}: delivered ${JSON.stringify(texts)}, expected ${JSON.stringify(PROVE_EVENT_TEXTS)}\n`);
    process.exit(1);
  }
}
