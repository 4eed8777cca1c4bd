import path from 'node:path';
import type { FixRun } from './fix-run.js';
import { formatRewrite } from './formatter.js';
import type { Rewritten } from './in-memory.js';

/** Formats each rewrite with the repository's formatter, in memory, until Ctrl-C; where it cannot run, says why. */
export async function formatRewrites(run: FixRun, toWrite: readonly Rewritten[]): Promise<void> {
  if (run.signal.aborted) return;
  run.phase = 'formatting';
  for (const [index, entry] of toWrite.entries()) {
    if (run.signal.aborted || entry.output === null) continue;
    run.progress.show(`formatting [${index + 1}/${toWrite.length}] ${path.relative(run.cwd, entry.file)}`);
    const formatted = await formatRewrite(entry.file, entry.source, entry.output, run.signal);
    entry.output = formatted.text;
    if (formatted.problem) entry.formatProblem = formatted.problem;
  }
}
