// Brings an SDK's pinned commit into the cache folder, pristine (tracked files reset, untracked
// files removed, ignored ones such as node_modules kept), and installs its dependencies when its
// lockfiles changed since the last install. Cloned from the repository's public URL, or from a
// local mirror (DRAINGUARD_SDK_MIRROR, see sdks.mjs). Usable on its own:
//   const dir = await preparePristine({ name, repo, commit, install, lockfiles, node }, console.log);
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, cloneSource } from './sdks.mjs';
import { nodeBinDir, sdkEnv } from './node-runtime.mjs';
import { run } from './run.mjs';

/** @param {{ name: string }} sdk */
export function checkoutDir(sdk) {
  return path.join(CACHE_DIR, sdk.name);
}

/**
 * @param {Pick<import('./sdks.mjs').Sdk, 'name' | 'repo' | 'commit'> & Partial<Pick<import('./sdks.mjs').Sdk, 'install' | 'lockfiles' | 'node'>>} sdk
 * @param {(line: string) => void} log
 * @returns {Promise<string>} the checkout's directory
 */
export async function preparePristine(sdk, log) {
  const dir = checkoutDir(sdk);
  mkdirSync(CACHE_DIR, { recursive: true });
  const source = cloneSource(sdk);
  if (!existsSync(path.join(dir, '.git'))) {
    log(`${sdk.name}: cloning ${source.url} into ${dir}`);
    // From the public URL, blobs come when the checkout needs them (vercel/ai is ~500 MB whole).
    const filter = source.mirror ? [] : ['--filter=blob:none'];
    await git(['clone', '--quiet', '--no-checkout', ...filter, source.url, dir], CACHE_DIR);
  }
  const has = await run('git', ['cat-file', '-e', `${sdk.commit}^{commit}`], { cwd: dir });
  if (has.code !== 0) await git(['fetch', '--quiet', 'origin', sdk.commit], dir);
  if (source.mirror) await skipAbsentFiles(sdk, dir, log);
  await git(['checkout', '--quiet', '--force', '--detach', sdk.commit], dir);
  await git(['clean', '--quiet', '-fd'], dir);
  await installIfNeeded(sdk, dir, log);
  return dir;
}

/**
 * A mirror may hold a repository without its largest blobs. Checking those files out would fail,
 * so they are left out of the working tree (sparse checkout) and named; a test that reads one fails
 * before and after the fix alike.
 * @param {{ name: string, commit: string }} sdk @param {string} dir @param {(line: string) => void} log
 */
async function skipAbsentFiles(sdk, dir, log) {
  const tree = await git(['ls-tree', '-r', '-z', sdk.commit], dir);
  const blobs = tree.stdout
    .split('\0')
    .filter(Boolean)
    .map((entry) => /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry))
    .filter((match) => match !== null)
    .map((match) => ({ id: match[1], path: match[2] }));
  const check = await run('git', ['cat-file', '--batch-check=%(objectname)'], { cwd: dir, input: blobs.map((blob) => blob.id).join('\n') + '\n', timeoutMs: 5 * 60_000 });
  const missing = new Set(check.stdout.split('\n').filter((line) => line.endsWith(' missing')).map((line) => line.split(' ')[0]));
  const absent = blobs.filter((blob) => missing.has(blob.id)).map((blob) => blob.path);
  if (absent.length === 0) {
    await run('git', ['sparse-checkout', 'disable'], { cwd: dir });
    return;
  }
  log(`${sdk.name}: ${absent.length} file(s) absent from the mirror, left out of the checkout: ${absent.join(', ')}`);
  const patterns = ['/*', ...absent.map((file) => `!/${file.replace(/[*?[\\!#]/g, '\\$&')}`)];
  await git(['sparse-checkout', 'set', '--no-cone', ...patterns], dir);
}

/** @param {string[]} args @param {string} cwd */
async function git(args, cwd) {
  const result = await run('git', args, { cwd, timeoutMs: 30 * 60_000 });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}:\n${result.stderr}`);
  return result;
}

/**
 * @param {Partial<Pick<import('./sdks.mjs').Sdk, 'install' | 'lockfiles' | 'node'>> & { name: string }} sdk
 * @param {string} dir @param {(line: string) => void} log
 */
async function installIfNeeded(sdk, dir, log) {
  const install = sdk.install ?? [];
  if (install.length === 0) return;
  const binDir = await nodeBinDir(sdk.node ?? process.versions.node.split('.')[0], log);
  const hash = createHash('sha256');
  hash.update(`${binDir}\n${JSON.stringify(install)}\n`);
  for (const file of sdk.lockfiles ?? []) hash.update(readFileSync(path.join(dir, file)));
  const wanted = hash.digest('hex');
  const stamp = path.join(dir, 'node_modules', '.drainguard-sdk-suites-install');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  for (const [command, ...args] of install) {
    log(`${sdk.name}: ${command} ${args.join(' ')}`);
    const result = await run(command, args, { cwd: dir, env: sdkEnv(binDir), timeoutMs: 20 * 60_000 });
    if (result.code !== 0) throw new Error(`${sdk.name}: install failed (${command} ${args.join(' ')}):\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
  }
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, wanted);
}
