import { setFlagsFromString } from 'node:v8';

/**
 * V8's optimizing compiler (TurboFan) pays for itself only on a run that lints enough text in this
 * process: on a short one, compiling the hot functions costs more than it saves (on 2 cores, the compiler's thread
 * takes the core the linting needs). So `drainguard lint` starts without it and turns it back on once the text it
 * will lint in process passes OPTIMIZE_FROM_BYTES, about where the two broke even when it was measured.
 */
export const OPTIMIZE_FROM_BYTES = 320 * 1024;

// Node documents that flags changed after start may do nothing; this one is read each time V8 decides to optimize a function.
let optimizing = true;

/** For the start of a command that may lint little: V8 runs the code without optimizing it. */
export function deferOptimizingCompiler(): void {
  if (!optimizing) return;
  setFlagsFromString('--no-opt');
  optimizing = false;
}

/** Turns the optimizing compiler back on (a no-op when it is on). */
export function allowOptimizingCompiler(): void {
  if (optimizing) return;
  setFlagsFromString('--opt');
  optimizing = true;
}

/**
 * Below this much text, an oxlint process runs without the optimizing compiler too (cli/engines/oxlint-launcher.ts
 * turns it on from there): a batch of the size most runs hand oxlint ends sooner without it (docs/engines.md). Larger
 * batches keep it: they run for seconds, and on a machine with more cores the compiler's own threads cost the linting
 * nothing.
 */
export const OXLINT_OPTIMIZE_FROM_BYTES = 1024 * 1024;

/** Counts the text a run will lint in process and turns the optimizing compiler on once it reaches OPTIMIZE_FROM_BYTES. */
export class InProcessWork {
  private bytes = 0;

  add(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes >= OPTIMIZE_FROM_BYTES) allowOptimizingCompiler();
  }
}
