// Brings an SDK's pinned commit into the cache folder, pristine (tracked files reset, untracked
// files removed, ignored ones such as node_modules kept), and installs its dependencies when its
// lockfiles changed since the last install.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR } from './sdks.mjs';
import { run } from './run.mjs';

/** @param {import('./sdks.mjs').Sdk} sdk */
export function checkoutDir(sdk) {
  return path.join(CACHE_DIR, sdk.name);
}

/**
 * @param {import('./sdks.mjs').Sdk} sdk
 * @param {(line: string) => void} log
 * @returns {Promise<string>} the checkout's directory
 */
export async function preparePristine(sdk, log) {
  const dir = checkoutDir(sdk);
  mkdirSync(CACHE_DIR, { recursive: true });
  if (!existsSync(path.join(dir, '.git'))) {
    if (!existsSync(sdk.source)) {
      throw new Error(`${sdk.repo}: no git directory at ${sdk.source}; fetch github:${sdk.repo} with the search tool first (or set DRAINGUARD_SDK_MIRRORS)`);
    }
    log(`${sdk.name}: cloning ${sdk.source} into ${dir}`);
    await git(['clone', '--quiet', '--no-checkout', sdk.source, dir], CACHE_DIR);
  }
  const has = await run('git', ['cat-file', '-e', `${sdk.commit}^{commit}`], { cwd: dir });
  if (has.code !== 0) await git(['fetch', '--quiet', 'origin'], dir);
  await git(['checkout', '--quiet', '--force', '--detach', sdk.commit], dir);
  await git(['clean', '--quiet', '-fd'], dir);
  await installIfNeeded(sdk, dir, log);
  return dir;
}

/** Restores the checkout's tracked files to the pinned commit (drops a rewrite). */
export async function resetSource(dir) {
  await git(['checkout', '--quiet', '--force', 'HEAD', '--', '.'], dir);
  await git(['clean', '--quiet', '-fd'], dir);
}

/** @param {string[]} args @param {string} cwd */
async function git(args, cwd) {
  const result = await run('git', args, { cwd });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}:\n${result.stderr}`);
  return result;
}

/** @param {import('./sdks.mjs').Sdk} sdk @param {string} dir @param {(line: string) => void} log */
async function installIfNeeded(sdk, dir, log) {
  const hash = createHash('sha256');
  hash.update(`${process.version}\n${JSON.stringify(sdk.install)}\n`);
  for (const file of sdk.lockfiles) hash.update(readFileSync(path.join(dir, file)));
  const wanted = hash.digest('hex');
  const stamp = path.join(dir, 'node_modules', '.drainguard-sdk-suites-install');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  for (const [command, ...args] of sdk.install) {
    log(`${sdk.name}: ${command} ${args.join(' ')}`);
    const result = await run(command, args, { cwd: dir, timeoutMs: 15 * 60_000 });
    if (result.code !== 0) throw new Error(`${sdk.name}: install failed (${command} ${args.join(' ')}):\n${result.stdout}\n${result.stderr}`);
  }
  writeFileSync(stamp, wanted);
}
