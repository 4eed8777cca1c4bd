// Where the pinned corpus SDKs live: a cache folder outside the repository (never committed).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CORPUS_DIR = process.env.DRAINGUARD_CORPUS ?? path.resolve(ROOT, '../shared/corpus');
export const CACHE_DIR =
  process.env.DRAINGUARD_CORPUS_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'drainguard-corpus');
export const MODULES_DIR = path.join(CACHE_DIR, 'node_modules');

/** The corpus package names, from ../shared/corpus/package.json. */
export function corpusPackages() {
  return Object.keys(JSON.parse(readFileSync(path.join(CORPUS_DIR, 'package.json'), 'utf8')).dependencies);
}

/** Installs the pinned SDKs (npm install --ignore-scripts) unless the cache already holds exactly them. */
export function installCorpus(log = (line) => process.stdout.write(`${line}\n`)) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const wanted = readFileSync(path.join(CORPUS_DIR, 'package.json'), 'utf8');
  const stamp = path.join(CACHE_DIR, '.installed-package.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted && existsSync(MODULES_DIR)) {
    log(`corpus: using the SDKs installed in ${CACHE_DIR}`);
    return;
  }
  writeFileSync(path.join(CACHE_DIR, 'package.json'), wanted);
  log(`corpus: installing the pinned SDKs into ${CACHE_DIR} (outside the repository) …`);
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: CACHE_DIR, stdio: 'inherit' });
  writeFileSync(stamp, wanted);
}
