// This example's own config (else vitest would take the repository's, which runs test/).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['*.test.mjs'] } });
