// The command `drainguard prove` runs for the README's chat clients (examples/): it makes
// DRAINGUARD_CALLS calls, one after the other, to DRAINGUARD_URL, and fails on the first error.
//   node docs/examples/prove/chat-calls.mjs <client.ts> <exported function>
// The client is TypeScript, which Node 20 does not run: esbuild bundles it (and what it imports) first.
import { build } from 'esbuild';

const [file, name] = process.argv.slice(2);
const { DRAINGUARD_URL: url, DRAINGUARD_CALLS: calls = '1' } = process.env;
if (!file || !name || !url) {
  console.error('usage: DRAINGUARD_URL=<url> node chat-calls.mjs <client.ts> <exported function> (drainguard prove sets DRAINGUARD_URL)');
  process.exit(2);
}
const bundle = await build({ entryPoints: [file], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'error' });
const client = await import(`data:text/javascript,${encodeURIComponent(bundle.outputFiles[0].text)}`);
for (let i = 0; i < Number(calls); i++) {
  await client[name](url, 'Say hello', () => {});
}
