// The property tests of `npm test` again, each with every generated program (npm test checks a quarter of them:
// test/support/property-runs.ts).
process.env.DRAINGUARD_PROPERTY_RUNS = 'full';
await import('../../property/codemod.test.js');
await import('../../property/never-throws.test.js');
