import { defineConfig } from 'vitest/config';

// The slow integration runs (`npm run test:integration`), apart from `npm test`, whose config excludes this folder:
// every test that starts a process (the built CLI, oxlint, jscodeshift's runner, git, test runners, benchmarks) or
// lints the project, the packed tarball in fresh projects, pre-commit try-repo, real clients against counting servers
// for every rewritten shape, the three lint engines compared, and the corpus sweep.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/integration/**/*.test.ts'],
    globalSetup: ['test/setup/build.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
