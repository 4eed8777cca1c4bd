import type { ESLint } from 'eslint';
import { isNotChecked } from '../shared/results.js';
import { RULE_ID } from '../shared/rule-id.js';

export interface LintCounts {
  /** Files the paths named or the walk found. */
  found: number;
  /** Files parsed and linted (the others were ruled out by the pre-filter or could not be read). */
  parsed: number;
}

const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

/**
 * The last line of a stylish run, on stderr, so a clean run says what it looked at:
 * `drainguard lint: 12 files found, 3 parsed, 1 early close.` (plus the files that do not parse, and those not checked:
 * unreadable, too large, binary or not UTF-8).
 */
export function lintSummary(counts: LintCounts, results: readonly ESLint.LintResult[]): string {
  let closes = 0;
  let unparsable = 0;
  let notChecked = 0;
  for (const result of results) {
    if (result.messages.some(isNotChecked)) notChecked++;
    else if (result.fatalErrorCount > 0) unparsable++;
    for (const message of result.messages) if (message.ruleId === RULE_ID) closes++;
  }
  const parts = [plural(counts.found, 'file') + ' found', `${counts.parsed} parsed`, plural(closes, 'early close')];
  if (unparsable > 0) parts.push(`${plural(unparsable, 'file')} that ${unparsable === 1 ? 'does' : 'do'} not parse`);
  if (notChecked > 0) parts.push(`${plural(notChecked, 'file')} not checked`);
  return `drainguard lint: ${parts.join(', ')}.\n${closes > 0 ? TRANSPORT_POINTER : ''}`;
}

/** Where to go from a report: the source fix, or, for an SDK the user only calls, the transports. */
export const TRANSPORT_POINTER =
  'next: drainguard fix rewrites them where you maintain the code; for an SDK you only call, drainguard/undici (Node) and drainguard-httpx (Python) keep its connections with no source change\n';
