// Builds dist/ with esbuild: the ESLint plugin (ESM), the CLI (ESM), the rewrite engine (ESM), the testing kit (ESM and CJS),
// the undici transport (ESM and CJS, and its `--import` installer) and the
// jscodeshift transform (CommonJS, because jscodeshift's workers require() it; it
// import()s dist/rewrite.js, the ESM rewrite engine the CLI also bundles).
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBuildRecord } from './build-record.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
// Bundled into the CLI instead of loaded from node_modules: typescript-eslint's scope manager is many small
// files (far slower to load one by one than as one chunk), and `drainguard lint` loads it
// for a few TypeScript files (cli/engines/native-parser.ts). It require()s the AST node types, which an ESM
// bundle can only give it by bundling them too.
const BUNDLED_IN_CLI = ['@typescript-eslint/scope-manager', '@typescript-eslint/visitor-keys', '@typescript-eslint/types'];
// The scope manager is run with `lib: []` (cli/engines/native-parser.ts): its TypeScript lib declarations (large,
// and slow to load) are left out of the bundle.
const withoutScopeManagerLibs = {
  name: 'without-scope-manager-libs',
  setup(build) {
    build.onLoad({ filter: /@typescript-eslint[\\/]scope-manager[\\/]dist[\\/]lib[\\/]index\.js$/ }, () => ({ contents: 'exports.lib = new Map();', loader: 'js' }));
  },
};
// transport/register.ts imports ./undici.js: the built dist/undici.js beside it, not a copy bundled in.
const sharedTransport = {
  name: 'shared-transport',
  setup(build) {
    build.onResolve({ filter: /^\.\/undici\.js$/ }, () => ({ path: './undici.js', external: true }));
  },
};
const cliExternal = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.devDependencies }).filter(
  (name) => !BUNDLED_IN_CLI.includes(name),
);
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  // What each build read and wrote, for the record a test run checks before it builds again (scripts/build-record.mjs).
  metafile: true,
};

// Chunk names carry a content hash: drop the old ones so a rebuild leaves no stale chunk to publish.
rmSync(`${root}/dist/chunks`, { recursive: true, force: true });

const builds = await Promise.all([
  build({ ...common, entryPoints: ['rules/index.ts'], outfile: 'dist/index.js', format: 'esm' }),
  // Split into chunks: a dynamic import() (fix, SARIF) then loads its external packages
  // (diff, write-file-atomic, node-sarif-builder) only when it runs, not on every `drainguard lint`.
  build({
    ...common,
    // oxlint-plugin and oxlint-launcher: the plugin `drainguard lint` hands to oxlint and the process it runs oxlint in
    // (cli/engines/oxlint-plugin.ts, cli/engines/oxlint-launcher.ts); eslint-setup:
    // loaded by the CLI when ESLint lints, and by bench:lint for the CLI's parser choices; fix-verify-worker: the thread
    // `drainguard fix` type-checks in, so that Ctrl-C can stop a check (cli/fix/verify.ts).
    entryPoints: {
      cli: 'cli/bin.ts',
      'oxlint-plugin': 'cli/engines/oxlint-plugin.ts',
      'oxlint-launcher': 'cli/engines/oxlint-launcher.ts',
      'eslint-setup': 'cli/engines/eslint-setup.ts',
      'fix-verify-worker': 'cli/fix/verify-worker.ts',
    },
    packages: undefined,
    external: cliExternal,
    plugins: [withoutScopeManagerLibs],
    outdir: 'dist',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({ ...common, entryPoints: ['codemods/rewrite.ts'], outfile: 'dist/rewrite.js', format: 'esm' }),
  // drainguard/testing, for ESM and for CommonJS test files (jest runs CommonJS unless told otherwise).
  build({ ...common, entryPoints: ['testing/index.ts'], outfile: 'dist/testing.js', format: 'esm' }),
  build({ ...common, entryPoints: ['testing/index.ts'], outfile: 'dist/testing.cjs', format: 'cjs' }),
  // drainguard/undici (ESM and CommonJS) and drainguard/undici/register, the `node --import` installer, which
  // imports dist/undici.js instead of carrying a second copy of it.
  build({ ...common, entryPoints: ['transport/undici.ts'], outfile: 'dist/undici.js', format: 'esm' }),
  build({ ...common, entryPoints: ['transport/undici.ts'], outfile: 'dist/undici.cjs', format: 'cjs' }),
  build({ ...common, entryPoints: ['transport/register.ts'], outfile: 'dist/undici-register.js', format: 'esm', plugins: [sharedTransport] }),
  build({
    ...common,
    entryPoints: ['codemods/drain-terminal-event.cts'],
    outfile: 'dist/codemod.cjs',
    format: 'cjs',
  }),
]);
chmodSync(`${root}/dist/cli.js`, 0o755);

// The Python grammar: only its .wasm is used (web-tree-sitter loads it, rules/python/parser.ts), so it ships in dist/
// with its licence instead of as a dependency: the tree-sitter-python package has an install script (node-gyp-build,
// for a native binding drainguard does not use), which npm 11 lists to every user as a script to approve.
const grammar = path.dirname(createRequire(import.meta.url).resolve('tree-sitter-python/package.json'));
mkdirSync(`${root}/dist/tree-sitter-python`, { recursive: true });
copyFileSync(`${grammar}/tree-sitter-python.wasm`, `${root}/dist/tree-sitter-python/tree-sitter-python.wasm`);
copyFileSync(`${grammar}/LICENSE`, `${root}/dist/tree-sitter-python/LICENSE`);

// The record of this build: what it read and wrote, each file with the hash of its content (scripts/build-record.mjs).
const grammarFiles = ['tree-sitter-python.wasm', 'LICENSE'];
writeBuildRecord(
  root,
  [...builds.flatMap((result) => Object.keys(result.metafile.inputs)), ...grammarFiles.map((file) => path.relative(root, `${grammar}/${file}`))],
  [...builds.flatMap((result) => Object.keys(result.metafile.outputs)), ...grammarFiles.map((file) => `dist/tree-sitter-python/${file}`)],
);
