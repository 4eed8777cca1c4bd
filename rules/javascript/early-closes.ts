import { solve, type PathFacts } from './flow.js';
import type { RecordedSite } from './record-sites.js';
import { isUnseenController } from './streams.js';

/** A close reached with the terminal event `event` pending and its stream short of EOF. */
export interface EarlyClose {
  site: RecordedSite;
  event: string;
}

/**
 * The code paths of a file worth solving, in the order they started: each that may close a response (one of its sites
 * has a family), and each whose state such a path inherits (a callback starts from the facts where it is written).
 */
export function codePathsToSolve(codePaths: readonly PathFacts<RecordedSite>[]): PathFacts<RecordedSite>[] {
  for (let index = codePaths.length - 1; index >= 0; index--) {
    const facts = codePaths[index];
    facts.needed ||= facts.sites?.some((site) => site.family() !== null) ?? false;
    if (facts.needed && facts.parent) facts.parent.needed = true;
  }
  return codePaths.filter((facts) => facts.needed);
}

/**
 * The early closes of `codePaths`: each solved to its fixed point (a path before the callbacks that start from its
 * state), and the sites it reaches with the terminal event pending.
 */
export function earlyCloses(codePaths: readonly PathFacts<RecordedSite>[]): EarlyClose[] {
  const found: EarlyClose[] = [];
  for (const facts of codePaths) {
    solve(facts, (site, state) => {
      const pending = state?.pending;
      if (!pending) return;
      const family = site.family();
      if (!family || pending.eofed.has(family) || site.closedBefore?.()) return;
      // A controller of unseen origin is taken to be that of the response this path read to its end.
      if (isUnseenController(family) && pending.eofed.size > 0) return;
      found.push({ site, event: pending.label });
    });
  }
  return found;
}
