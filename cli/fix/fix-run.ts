import { drainBounds, type DrainBounds } from '../../rules/contract/drain-options.js';
import type { FixArgs } from './args.js';
import type { HelperChoice } from './helper-choice.js';
import type { Progress } from './progress.js';
import type { FixPhase } from './report.js';
import type { Verifier } from './verify.js';

/** What every step of a `drainguard fix` run reads: its arguments and files, the helper modules chosen, the type-checker, Ctrl-C. */
export interface FixRun {
  args: FixArgs;
  cwd: string;
  files: readonly string[];
  /** The files named on the command line: always parsed, as `lint` parses them. */
  named: ReadonlySet<string>;
  choices: HelperChoice[];
  /** The helper module each file of a front end that shares one imports. */
  choiceOf: ReadonlyMap<string, HelperChoice>;
  verifier: Verifier | undefined;
  /** Aborted by Ctrl-C. */
  signal: AbortSignal;
  progress: Progress;
  /** What the run is doing, for the line that says where Ctrl-C stopped it. */
  phase: FixPhase;
}

/** The drain bounds of the files that import a helper module: an existing module keeps its limits unless they are given. */
export function boundsOf(args: FixArgs, choice: HelperChoice | undefined): DrainBounds {
  return drainBounds({
    drainTimeoutMs: args.drainTimeoutMs ?? choice?.existing?.bounds.drainTimeoutMs,
    drainMaxBytes: args.drainMaxBytes ?? choice?.existing?.bounds.drainMaxBytes,
    drainWaitMs: args.drainWaitMs,
  });
}
