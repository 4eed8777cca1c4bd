// The declarations of drainguard/testing for CommonJS importers (`require('drainguard/testing')` loads
// dist/testing.cjs, built from index.ts by scripts/build.mjs): the same API as index.ts.
export * from './index.js';
