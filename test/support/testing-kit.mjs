// drainguard/testing as users get it: the built dist/testing.js (typed by testing-kit.d.mts from the sources).
export * from '../../dist/testing.js';
