// Preloaded with NODE_OPTIONS=--require (so also in an oxlint child): at exit, appends one JSON line to
// $DRAINGUARD_PROCESS_FILE with the process's script, whether NODE_EXTRA_CA_CERTS reached it, and whether
// V8's optimizing compiler was on at the end (a function made hot then is optimized, or not).
const { appendFileSync } = require('node:fs');
const v8 = require('node:v8');

v8.setFlagsFromString('--allow-natives-syntax');
// Optimize on the main thread, at once: the probe below runs inside the exit handler.
v8.setFlagsFromString('--no-concurrent-recompilation');
const optimizationStatus = new Function('f', 'return %GetOptimizationStatus(f)');
const OPTIMIZED = 1 << 4;

process.on('exit', () => {
  const probe = new Function('a', 'let s = 0; for (let i = 0; i < 100; i++) s += a * i; return s;');
  for (let i = 0; i < 100_000; i++) probe(i);
  const record = {
    script: process.argv[1],
    extraCaCerts: process.env.NODE_EXTRA_CA_CERTS ?? null,
    optimizing: (optimizationStatus(probe) & OPTIMIZED) !== 0,
  };
  appendFileSync(process.env.DRAINGUARD_PROCESS_FILE, `${JSON.stringify(record)}\n`);
});
