// drainguard/undici as users get it: the built dist/undici.js (typed by transport.d.mts from the sources).
export * from '../../dist/undici.js';
