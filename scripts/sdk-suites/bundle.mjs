// Bundles an SDK's source (as it is in the checkout: rewritten or not) into one ESM file for the
// probe, with the esbuild drainguard already builds with. Written to the cache, never to the repo.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * @param {import('./sdks.mjs').Sdk} sdk its `entry` (and `tsconfig`, default the checkout's root one)
 * @param {string} dir the SDK checkout
 * @param {string} outfile
 */
export async function bundleSdk(sdk, dir, outfile) {
  if (!sdk.entry) throw new Error(`${sdk.name} has no entry to bundle`);
  mkdirSync(path.dirname(outfile), { recursive: true });
  await build({
    absWorkingDir: dir,
    entryPoints: [path.join(dir, sdk.entry)],
    tsconfig: path.join(dir, sdk.tsconfig ?? 'tsconfig.json'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    // ws's optional native helpers, and CommonJS code that calls require() at run time.
    external: ['bufferutil', 'utf-8-validate'],
    banner: { js: "import { createRequire as __probeRequire } from 'node:module'; const require = __probeRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return outfile;
}
