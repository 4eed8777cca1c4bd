import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Slow runs over real packages: test/integration/vitest.config.ts.
    exclude: [...configDefaults.exclude, 'test/integration/**'],
    setupFiles: ['test/setup/rule-tester.ts'],
    globalSetup: ['test/setup/build.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine.
    maxWorkers: availableParallelism(),
  },
});
