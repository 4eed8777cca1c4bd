// The SDK repositories the harness runs `drainguard fix` on, each pinned to a commit, with the
// commands its own CI uses: install, type-check, test suite, and the lint and format checks that
// are run on the files the fix changed. Each is cloned from its public URL (or a local mirror, see
// cloneSource) into a cache folder outside this repository and never committed.
import { homedir } from 'node:os';
import path from 'node:path';

export const CACHE_DIR =
  process.env.DRAINGUARD_SDK_SUITES_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'drainguard-sdk-suites');

/**
 * Where a repository is cloned from: its public URL, or, when DRAINGUARD_SDK_MIRROR is set, that
 * template with `{owner}` and `{name}` replaced (a local git directory or another URL), e.g.
 * `DRAINGUARD_SDK_MIRROR=/srv/git/{owner}/{name}.git`.
 * @param {{ repo: string }} sdk
 * @param {string | undefined} [template]
 */
export function cloneSource(sdk, template = process.env.DRAINGUARD_SDK_MIRROR) {
  const [owner, name] = sdk.repo.split('/');
  if (!template) return { url: `https://github.com/${sdk.repo}.git`, mirror: false };
  if (!template.includes('{owner}') || !template.includes('{name}')) {
    throw new Error(`DRAINGUARD_SDK_MIRROR must contain {owner} and {name} (it is ${template})`);
  }
  return { url: template.replaceAll('{owner}', owner).replaceAll('{name}', name), mirror: true };
}

/**
 * A command run in a folder of the checkout (`cwd`, relative to it).
 * @typedef {{ cwd: string, command: string[] }} Step
 * @typedef {{ label: string, cwd: string, command: string[], runner?: 'vitest' | 'jest' }} TestRun  a vitest (default) or jest run; the harness adds reporter and timeout flags
 * @typedef {{ name: string, command: string[] }} Check  run at the checkout's root with the changed files appended
 *
 * @typedef {object} Sdk
 * @property {string} name          folder name under CACHE_DIR
 * @property {string} repo          owner/name on GitHub
 * @property {string} commit        the commit that is checked out
 * @property {string} node          the Node.js major version its commands run on (see node-runtime.mjs)
 * @property {string[][]} install   commands run at the checkout's root when its lockfiles change
 * @property {string[]} lockfiles   paths whose content decides whether to reinstall
 * @property {Step} typecheck       the type-check
 * @property {TestRun[]} tests      the suite (one or more vitest runs)
 * @property {Check[]} checks       the repository's own lint and format checks, on the changed files
 * @property {string} fixPath       what `drainguard fix` is pointed at (relative to the checkout)
 * @property {string} [entry]       the SDK's source entry point, bundled for the probe (SDKs with a call in probe-calls.mjs)
 * @property {string} [tsconfig]    the tsconfig.json the bundle is built with (default: the checkout's root one)
 */

/** pnpm as the repository pins it, without letting it switch itself to another version. */
const pnpm = (version) => ['npx', '-y', `pnpm@${version}`];

/** @type {Sdk[]} */
export const SDKS = [
  {
    name: 'openai-node',
    repo: 'openai/openai-node',
    commit: '7b7d6ca71130d37ec09792c50056b47861f2eccf',
    node: '22',
    // packageManager pnpm@11.5.1; CI's ./scripts/bootstrap is `pnpm install --frozen-lockfile`.
    install: [[...pnpm('11.5.1'), 'install', '--frozen-lockfile', '--ignore-scripts']],
    lockfiles: ['pnpm-lock.yaml'],
    // CI's `pnpm exec tsc`: tsconfig.json has noEmit and covers src, tests, examples.
    typecheck: { cwd: '.', command: ['./node_modules/.bin/tsc', '-p', 'tsconfig.json'] },
    // scripts/test's handwritten unit suite (`pnpm test:unit`); the generated suite needs their mock server.
    tests: [{ label: 'unit', cwd: '.', command: ['./node_modules/.bin/vitest', 'run', '--config', 'vitest.config.mts', '--maxWorkers=2'] }],
    // ./scripts/lint, on the given files: generated-file rules, then `ultracite check` (oxlint + oxfmt).
    checks: [
      { name: 'lint-generated', command: ['node', './scripts/lint-generated.cjs', '--check'] },
      { name: 'ultracite check', command: ['./node_modules/.bin/ultracite', 'check'] },
    ],
    fixPath: 'src/',
    entry: 'src/index.ts',
  },
  {
    name: 'anthropic-sdk-typescript',
    repo: 'anthropics/anthropic-sdk-typescript',
    commit: 'bfa9197f0182084941052be9752c948638421601',
    node: '22',
    // packageManager pnpm@10.34.5; CI's ./scripts/bootstrap is `pnpm install`. One lockfile for the
    // workspace: only the root package (the SDK) is installed, not packages/* (Bedrock, Vertex, …).
    install: [[...pnpm('10.34.5'), 'install', '--frozen-lockfile', '--ignore-scripts', '--filter', '@anthropic-ai/sdk']],
    lockfiles: ['pnpm-lock.yaml'],
    // ./scripts/lint's `tsc` (tsconfig.json has noEmit and covers src, tests, examples).
    typecheck: { cwd: '.', command: ['./node_modules/.bin/tsc', '-p', 'tsconfig.json'] },
    // ./scripts/test's root `jest`, without tests/api-resources (the generated suite needs their
    // Steady mock server on port 4010) and without packages/* (their own SDKs, built from dist/).
    tests: [
      {
        label: 'jest',
        cwd: '.',
        runner: 'jest',
        command: ['./node_modules/.bin/jest', '--maxWorkers=2', '--testPathIgnorePatterns=scripts', '--testPathIgnorePatterns=tests/api-resources'],
      },
    ],
    // ./scripts/lint's `prettier --check` and `eslint`, on the given files.
    checks: [
      { name: 'prettier --check', command: ['./node_modules/.bin/prettier', '--check'] },
      { name: 'eslint', command: ['./node_modules/.bin/eslint'] },
    ],
    fixPath: 'src/',
    entry: 'src/index.ts',
  },
  {
    name: 'client-ts',
    repo: 'mistralai/client-ts',
    commit: 'b14b3b90586e5829a7ef29e4b6c810afd4f2def6',
    node: '22',
    // CI (test_custom_code.yaml): npm install, and in tests/; the lockfiles make that `npm ci`.
    install: [
      ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      ['npm', 'ci', '--prefix', 'tests', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    ],
    lockfiles: ['package-lock.json', 'tests/package-lock.json'],
    // CI's `npm run build` is `tsgo` (TypeScript 7 preview); the same without writing dist/.
    typecheck: { cwd: '.', command: ['./node_modules/.bin/tsgo', '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'] },
    // CI's `cd tests && npm test` (vitest run).
    tests: [{ label: 'tests', cwd: 'tests', command: ['./node_modules/.bin/vitest', 'run'] }],
    // `npm run lint`: oxlint --max-warnings=0 --deny-warnings on src; no formatter is configured.
    checks: [{ name: 'oxlint', command: ['./node_modules/.bin/oxlint', '--max-warnings=0', '--deny-warnings'] }],
    fixPath: 'src/',
    entry: 'src/index.ts',
  },
  {
    name: 'cohere-typescript',
    repo: 'cohere-ai/cohere-typescript',
    commit: '7c29ae7bc5bb928a102b671400231b5543665c98',
    node: '22',
    // packageManager pnpm@10.33.0; CI: `pnpm install`, `pnpm build` (tsc), `pnpm test` (vitest).
    install: [[...pnpm('10.33.0'), 'install', '--frozen-lockfile', '--ignore-scripts']],
    lockfiles: ['pnpm-lock.yaml'],
    typecheck: { cwd: '.', command: ['./node_modules/.bin/tsc', '-p', 'tsconfig.json', '--noEmit'] },
    // The unit and wire projects (msw mocks); the `custom` project calls the live API with a key.
    tests: [{ label: 'unit+wire', cwd: '.', command: ['./node_modules/.bin/vitest', 'run', '--project', 'unit', '--project', 'wire'] }],
    // `pnpm lint` and `pnpm format:check` (biome), on the given files.
    checks: [
      { name: 'biome lint', command: ['./node_modules/.bin/biome', 'lint', '--skip-parse-errors', '--no-errors-on-unmatched', '--max-diagnostics=none'] },
      { name: 'biome format', command: ['./node_modules/.bin/biome', 'format', '--skip-parse-errors', '--no-errors-on-unmatched', '--max-diagnostics=none'] },
    ],
    fixPath: 'src/',
    entry: 'src/index.ts',
  },
  {
    name: 'hume-typescript-sdk',
    repo: 'HumeAI/hume-typescript-sdk',
    commit: 'c1ad703ab09473b631bc79d195c5ae3008581250',
    node: '22',
    // packageManager pnpm@10.20.0; CI: `pnpm install`, `pnpm build`, `pnpm format:check`, `pnpm test`.
    install: [[...pnpm('10.20.0'), 'install', '--frozen-lockfile', '--ignore-scripts']],
    lockfiles: ['pnpm-lock.yaml'],
    typecheck: { cwd: '.', command: ['./node_modules/.bin/tsc', '-p', 'tsconfig.json', '--noEmit'] },
    tests: [{ label: 'unit+wire', cwd: '.', command: ['./node_modules/.bin/vitest', 'run'] }],
    checks: [
      { name: 'biome lint', command: ['./node_modules/.bin/biome', 'lint', '--skip-parse-errors', '--no-errors-on-unmatched', '--max-diagnostics=none'] },
      { name: 'biome format', command: ['./node_modules/.bin/biome', 'format', '--skip-parse-errors', '--no-errors-on-unmatched', '--max-diagnostics=none'] },
    ],
    fixPath: 'src/',
    // No probe: the fixed sites are Fern's Stream terminator branches, and no Hume endpoint sets a
    // terminator (its two streams are NDJSON), so no call of the SDK reaches them.
  },
  {
    name: 'vercel-ai-google',
    repo: 'vercel/ai',
    commit: 'ed857f50f112e23930b0c2dd8d532cc8bebbc911',
    node: '22',
    // Only the root (its lint and test tools), the google provider and the workspace packages it
    // needs; those are built (tsup) so that its tests import them as CI's `turbo test` does.
    install: [
      [...pnpm('10.33.4'), 'install', '--frozen-lockfile', '--ignore-scripts', '--filter', 'ai-repo', '--filter', '@ai-sdk/google...'],
      [...pnpm('10.33.4'), '--filter', '@ai-sdk/google^...', 'run', 'build'],
    ],
    lockfiles: ['pnpm-lock.yaml'],
    // packages/google's `pnpm type-check` (tsc --build with its project references).
    typecheck: { cwd: 'packages/google', command: ['./node_modules/.bin/tsc', '--build'] },
    // packages/google's `pnpm test`: test:node, then test:edge.
    tests: [
      { label: 'node', cwd: 'packages/google', command: ['../../node_modules/.bin/vitest', '--config', 'vitest.node.config.js', '--run'] },
      { label: 'edge', cwd: 'packages/google', command: ['../../node_modules/.bin/vitest', '--config', 'vitest.edge.config.js', '--run'] },
    ],
    // The root's `pnpm run check` (ultracite: oxlint + oxfmt), on the given files.
    checks: [{ name: 'ultracite check', command: ['./node_modules/.bin/ultracite', 'check'] }],
    fixPath: 'packages/google/src/',
    entry: 'packages/google/src/index.ts',
    tsconfig: 'packages/google/tsconfig.json',
  },
];
