// The Node.js an SDK's commands run on. Many SDKs want Node 22 (pnpm 11 needs it); when this
// harness runs on another major version, the `node-<platform>-<arch>` package from the npm registry
// gives that binary (no download outside the registry). It is installed once into the cache.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR } from './sdks.mjs';
import { run } from './run.mjs';

/** The exact release installed per major version. */
export const NODE_RELEASES = { 22: '22.23.5' };

/**
 * The folder holding the `node` binary of `major` (this process's own when the major matches).
 * @param {string} major
 * @param {(line: string) => void} log
 */
export async function nodeBinDir(major, log) {
  if (process.versions.node.split('.')[0] === major) return path.dirname(process.execPath);
  const release = NODE_RELEASES[major];
  if (!release) throw new Error(`no Node.js ${major} release is known (known: ${Object.keys(NODE_RELEASES).join(', ')})`);
  const pkg = `node-${process.platform}-${process.arch}`;
  const prefix = path.join(CACHE_DIR, `node-${release}`);
  const bin = path.join(prefix, 'node_modules', pkg, 'bin');
  if (existsSync(path.join(bin, 'node'))) return bin;
  log(`node ${release}: npm install ${pkg}@${release} into ${prefix}`);
  const args = ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${release}`];
  const result = await run('npm', args, { cwd: CACHE_DIR, timeoutMs: 10 * 60_000 });
  if (result.code !== 0 || !existsSync(path.join(bin, 'node'))) throw new Error(`cannot install ${pkg}@${release}:\n${result.stderr}`);
  return bin;
}

/**
 * The environment of an SDK's commands: its Node first on PATH (npm, npx and pnpm's `#!/usr/bin/env
 * node` then run on it too), CI=true (vitest writes no snapshot; tools print no prompts).
 * @param {string} binDir
 * @param {NodeJS.ProcessEnv} [base]
 */
export function sdkEnv(binDir, base = process.env) {
  return { ...base, PATH: `${binDir}${path.delimiter}${base.PATH ?? ''}`, CI: 'true' };
}
