// The declarations of drainguard/undici for CommonJS importers (`require('drainguard/undici')` loads
// dist/undici.cjs, built from undici.ts by scripts/build.mjs): the same API as undici.ts.
export * from './undici.js';
