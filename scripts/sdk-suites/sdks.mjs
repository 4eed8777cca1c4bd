// The SDK repositories the harness runs `drainguard fix` on, each pinned to a commit, with the
// commands its own CI uses: install, type-check, test suite. Their code is checked out into a cache
// folder outside this repository and never committed.
import { homedir } from 'node:os';
import path from 'node:path';

export const CACHE_DIR =
  process.env.DRAINGUARD_SDK_SUITES_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'drainguard-sdk-suites');

/** Where the search tool's `fetch` leaves a bare git directory of a public repository. */
const MIRROR_ROOT = process.env.DRAINGUARD_SDK_MIRRORS ?? '/work/.mirror';

/**
 * @typedef {object} Sdk
 * @property {string} name          folder name under CACHE_DIR
 * @property {string} repo          owner/name on GitHub
 * @property {string} source        a git directory (or URL) to clone from
 * @property {string} commit        the commit that is checked out
 * @property {string[][]} install   commands run in the checkout when its lockfiles change
 * @property {string[]} lockfiles   paths whose content decides whether to reinstall
 * @property {string[]} typecheck   the type-check command (run in the checkout)
 * @property {{ cwd: string, command: string[] }} tests  a vitest run; the harness adds reporter and timeout flags
 * @property {string} fixPath       what `drainguard fix` is pointed at
 * @property {string} entry         the SDK's source entry point, bundled for the probe
 */

/** @type {Sdk[]} */
export const SDKS = [
  {
    name: 'openai-node',
    repo: 'openai/openai-node',
    source: path.join(MIRROR_ROOT, 'openai+openai-node/repo'),
    commit: '7b7d6ca71130d37ec09792c50056b47861f2eccf',
    // Their packageManager field names pnpm 11 (Node 22); pnpm 10 reads the same v9 lockfile on Node 20.
    install: [['npx', '-y', 'pnpm@10', 'install', '--frozen-lockfile', '--ignore-scripts', '--config.manage-package-manager-versions=false']],
    lockfiles: ['pnpm-lock.yaml'],
    // CI's `pnpm exec tsc`: tsconfig.json has noEmit and covers src, tests, examples.
    typecheck: ['./node_modules/.bin/tsc', '-p', 'tsconfig.json'],
    // scripts/test's handwritten unit suite; the generated suite needs their mock server (not run here).
    tests: { cwd: '.', command: ['./node_modules/.bin/vitest', 'run', '--config', 'vitest.config.mts', '--maxWorkers=2'] },
    fixPath: 'src/',
    entry: 'src/index.ts',
  },
  {
    name: 'client-ts',
    repo: 'mistralai/client-ts',
    source: path.join(MIRROR_ROOT, 'mistralai+client-ts/repo'),
    commit: 'b14b3b90586e5829a7ef29e4b6c810afd4f2def6',
    install: [
      ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      ['npm', 'ci', '--prefix', 'tests', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    ],
    lockfiles: ['package-lock.json', 'tests/package-lock.json'],
    typecheck: ['./node_modules/.bin/tsc', '-p', 'tsconfig.json', '--noEmit'],
    // The Makefile's `make test`: `cd tests && npm test` (vitest run).
    tests: { cwd: 'tests', command: ['./node_modules/.bin/vitest', 'run'] },
    fixPath: 'src/',
    entry: 'src/index.ts',
  },
];
