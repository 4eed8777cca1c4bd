import type { ESLint, Linter } from 'eslint';
import { RULE_ID } from './rule-id.js';
import { problemMessage, type SourceProblem } from './source-text.js';

type Counts = Pick<ESLint.LintResult, 'errorCount' | 'fatalErrorCount' | 'warningCount' | 'fixableErrorCount' | 'fixableWarningCount'>;

/** The same counts ESLint computes for a result (eslint/lib/shared/message-counts.js). */
function countMessages(messages: readonly Linter.LintMessage[]): Counts {
  const counts: Counts = { errorCount: 0, fatalErrorCount: 0, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 };
  for (const message of messages) {
    if (message.fatal || message.severity === 2) {
      counts.errorCount++;
      if (message.fatal) counts.fatalErrorCount++;
      if (message.fix) counts.fixableErrorCount++;
    } else {
      counts.warningCount++;
      if (message.fix) counts.fixableWarningCount++;
    }
  }
  return counts;
}

/** A result shaped exactly as ESLint shapes one (key order included, `source` only when there are problems). */
export function makeResult(
  filePath: string,
  messages: Linter.LintMessage[],
  suppressedMessages: Linter.SuppressedLintMessage[] = [],
  source?: string,
): ESLint.LintResult {
  const counts = countMessages(messages);
  const base = { filePath, messages, suppressedMessages, ...counts };
  const hasProblems = counts.errorCount + counts.warningCount > 0;
  return source !== undefined && hasProblems ? { ...base, source, usedDeprecatedRules: [] } : { ...base, usedDeprecatedRules: [] };
}

/** The result ESLint gives a file without problems (used for files the pre-filter skips). */
export function cleanResult(filePath: string): ESLint.LintResult {
  return makeResult(filePath, []);
}

/** Messages of files that were not checked at all (unreadable, too large, binary, not UTF-8): SARIF lists them as notifications. */
const notCheckedMessages = new WeakSet<Linter.LintMessage>();

/** Whether a message says its file was not checked (see {@link notCheckedResult}), rather than where it fails to parse. */
export function isNotChecked(message: Linter.LintMessage): boolean {
  return notCheckedMessages.has(message);
}

/**
 * A fatal result for a file that could not be checked: it could not be read, is too large, binary or not UTF-8. Shaped
 * as ESLint shapes a parse error (`ruleId: null, fatal: true`), so it counts as an error and the run exits 1.
 */
export function notCheckedResult(filePath: string, problem: SourceProblem): ESLint.LintResult {
  const message: Linter.LintMessage = { ruleId: null, fatal: true, severity: 2, message: problemMessage(problem), line: problem.line, column: problem.column };
  notCheckedMessages.add(message);
  return makeResult(filePath, [message]);
}

/** A fatal result for a file on which linting itself failed (a bug in drainguard): the run goes on. */
export function crashResult(filePath: string, error: unknown): ESLint.LintResult {
  const reason = error instanceof Error ? error.message : String(error);
  const message = `drainguard failed on this file (please report it): ${reason}`;
  return makeResult(filePath, [{ ruleId: null, fatal: true, severity: 2, message, line: 0, column: 0 }]);
}

function isOwnMessage(message: Linter.LintMessage): boolean {
  return message.ruleId === RULE_ID || message.fatal === true;
}

/**
 * Keeps only drainguard's messages and fatal (parse) errors: inline comments in user code
 * (`eslint-disable … some-other/rule`, `/* eslint foo: error *\/`) would otherwise report
 * "Definition for rule … was not found", and ESLint's own notices (ruleId null, not fatal) are noise.
 */
export function keepOwnMessages(result: ESLint.LintResult): ESLint.LintResult {
  const messages = result.messages.filter(isOwnMessage);
  const suppressed = result.suppressedMessages.filter(isOwnMessage);
  if (messages.length === result.messages.length && suppressed.length === result.suppressedMessages.length) return result;
  return makeResult(result.filePath, messages, suppressed, result.source);
}

export function hasProblems(results: readonly ESLint.LintResult[]): boolean {
  return results.some((result) => result.errorCount + result.warningCount > 0);
}

export function isFatal(result: ESLint.LintResult): boolean {
  return result.fatalErrorCount > 0;
}
