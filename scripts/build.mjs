// Builds dist/ with esbuild: the ESLint plugin (ESM), the CLI (ESM), the rewrite engine (ESM) and the
// jscodeshift transform (CommonJS, because jscodeshift's workers require() it; it
// import()s dist/rewrite.js, the ESM rewrite engine the CLI also bundles).
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};

await Promise.all([
  build({ ...common, entryPoints: ['rules/index.ts'], outfile: 'dist/index.js', format: 'esm' }),
  build({
    ...common,
    entryPoints: ['cli/main.ts'],
    outfile: 'dist/cli.js',
    format: 'esm',
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({ ...common, entryPoints: ['codemods/rewrite.ts'], outfile: 'dist/rewrite.js', format: 'esm' }),
  build({
    ...common,
    entryPoints: ['codemods/drain-terminal-event.cts'],
    outfile: 'dist/codemod.cjs',
    format: 'cjs',
  }),
]);
chmodSync(`${root}/dist/cli.js`, 0o755);
