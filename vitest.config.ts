import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that start processes or lint the project, and slow runs over real packages: test/integration/vitest.config.ts.
    exclude: [...configDefaults.exclude, 'test/integration/**'],
    // in-process.ts: a test that starts a process fails (such tests belong in test/integration/).
    setupFiles: ['test/setup/in-process.ts', 'test/setup/rule-tester.ts'],
    globalSetup: ['test/setup/build.ts'],
    // After vitest's own report, the test files that took 5 s or more with their times (a report, never a failure).
    reporters: ['default', './test/setup/slow-files.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The test files of a worker share its modules (ESLint, TypeScript, ts-morph, the Python grammar), loaded once
    // instead of once a file: about a third of the suite's CPU time. A test file leaves no state behind (it restores
    // what it changes: environment variables, the global dispatcher) and starts servers of its own.
    isolate: false,
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine.
    maxWorkers: availableParallelism(),
  },
});
