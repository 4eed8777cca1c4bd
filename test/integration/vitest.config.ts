import { defineConfig } from 'vitest/config';

// Slow integration runs, apart from `npm test` (whose config excludes this folder).
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/integration/**/*.test.ts'],
    globalSetup: ['test/setup/build.ts'],
    pool: 'forks',
  },
});
