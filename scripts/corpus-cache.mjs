// Where the pinned corpus SDKs live: cache folders outside the repository (never committed).
// Two lists: ../shared/corpus (the team's, read-only here) and bench/corpus (the wider sweep, ours).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE_ROOT = process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache');

/** A pinned list: `dir` holds its package.json and expected.tsv, `cache` the folder it is installed into. */
export const SHARED_CORPUS = {
  name: 'shared',
  dir: process.env.DRAINGUARD_CORPUS ?? path.resolve(ROOT, '../shared/corpus'),
  cache: process.env.DRAINGUARD_CORPUS_CACHE ?? path.join(CACHE_ROOT, 'drainguard-corpus'),
};
export const WIDE_CORPUS = {
  name: 'wide',
  dir: path.join(ROOT, 'bench/corpus'),
  cache: process.env.DRAINGUARD_WIDE_CORPUS_CACHE ?? path.join(CACHE_ROOT, 'drainguard-corpus-wide'),
};

/**
 * The candidate-dense set of `npm run bench:lint`: the TypeScript sources the OpenAI, Anthropic, Mistral and Groq SDKs
 * ship in their npm packages and Google's two SDK bundles (bench/dense/package.json pins them, bench/lint.mjs names
 * what of them it lints).
 */
export const DENSE_SET = {
  name: 'dense',
  dir: path.join(ROOT, 'bench/dense'),
  cache: process.env.DRAINGUARD_DENSE_CACHE ?? path.join(CACHE_ROOT, 'drainguard-bench-dense'),
};

export const CORPUS_DIR = SHARED_CORPUS.dir;
export const CACHE_DIR = SHARED_CORPUS.cache;
export const MODULES_DIR = modulesDir(SHARED_CORPUS);

export function modulesDir(corpus) {
  return path.join(corpus.cache, 'node_modules');
}

/** The package names of a corpus list (its package.json's dependencies). */
export function corpusPackages(corpus = SHARED_CORPUS) {
  return Object.keys(JSON.parse(readFileSync(path.join(corpus.dir, 'package.json'), 'utf8')).dependencies);
}

/** Installs a corpus's pinned SDKs (npm install --ignore-scripts) unless its cache already holds exactly them. */
export function installCorpus(log = (line) => process.stdout.write(`${line}\n`), corpus = SHARED_CORPUS) {
  mkdirSync(corpus.cache, { recursive: true });
  const wanted = readFileSync(path.join(corpus.dir, 'package.json'), 'utf8');
  const stamp = path.join(corpus.cache, '.installed-package.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted && existsSync(modulesDir(corpus))) {
    log(`corpus ${corpus.name}: using the SDKs installed in ${corpus.cache}`);
    return;
  }
  writeFileSync(path.join(corpus.cache, 'package.json'), wanted);
  log(`corpus ${corpus.name}: installing the pinned SDKs into ${corpus.cache} (outside the repository) …`);
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: corpus.cache, stdio: 'inherit' });
  writeFileSync(stamp, wanted);
}
