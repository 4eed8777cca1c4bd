import { CLEAR_LINE, type Progress } from './progress.js';
import type { FixPhase } from './report.js';

/**
 * Ctrl-C stops the run at once: in memory (reading, formatting, type-checking) nothing is written yet; while it
 * writes, after the file being written. A second Ctrl-C exits there and then (each write is atomic all the same).
 * `release` stops listening.
 */
export function stopOnInterrupt(progress: Progress): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const onSigint = (): void => {
    if (stop.signal.aborted) {
      process.stderr.write(`${progress.shown ? CLEAR_LINE : ''}drainguard fix: interrupted again: exiting; every file is either unchanged or fully rewritten.\n`);
      process.exit(130);
    }
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: stop.signal, release: () => process.off('SIGINT', onSigint) };
}

/** The last line after Ctrl-C: where it stopped, and what is on disk. */
export function interruptedLine(phase: FixPhase, written: number, notWritten: number, dry: boolean): string {
  const where = phase === 'reading' ? 'while reading the files' : `while ${phase === 'writing' ? 'writing' : phase}`;
  if (dry) return `drainguard fix: interrupted ${where} (dry run: nothing written).\n`;
  if (written === 0) return `drainguard fix: interrupted ${where}: nothing was written, every file is as it was.\n`;
  return `drainguard fix: interrupted ${where}: ${written} file${written === 1 ? '' : 's'} written (listed above), ${notWritten} not written; every file is either unchanged or fully rewritten.\n`;
}
