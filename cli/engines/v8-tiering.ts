import { setFlagsFromString } from 'node:v8';

/**
 * V8's optimizing compiler (TurboFan) pays for itself only on a run that lints enough text in this
 * process: on a short one, compiling the hot functions costs more than it saves. Measured on 2 cores
 * (bench/RESULTS.md, issue 19): without it, a clean lint of 4 files (59 KB) took 583 -> 509 ms wall and
 * 770 -> 530 ms CPU; at ~270 KB it still won (1.20 -> 1.11 s), at ~390 KB it broke even, at ~550 KB it
 * lost (1.26 -> 1.34 s). So `drainguard lint` starts without it and turns it back on once the text it
 * will lint in process passes OPTIMIZE_FROM_BYTES.
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
 * Below this much text, an oxlint process runs without the optimizing compiler too (cli/engines/oxlint-launcher.ts turns it
 * on from there). Measured on the SDK mix (774 files; oxlint gets 47 of them, 642 KB, and runs beside this process on
 * 2 cores): with `--no-opt` for oxlint 2.13 -> 1.93 s wall, 3.67 -> 3.08 s CPU (9 alternate runs). Larger batches
 * keep it: they run for seconds, and on a machine with more cores the compiler's own threads cost the linting nothing.
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
