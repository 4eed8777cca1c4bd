import type { ESLint } from 'eslint';
import type { SharedRuleOptions } from '../../rules/contract/rule-options.js';
import { mayReportPython as mayReport } from '../../rules/python/analyze.js';
import { pythonAnalysisOptions } from '../../rules/python/options.js';
import { isPythonPath, lintPythonText } from '../../rules/python/lint.js';
import { crashResult, makeResult } from '../shared/results.js';

export { isPythonPath };

/**
 * The lint result of a Python file the pre-filter kept (see mayReportPython), shaped as ESLint shapes one (a crash of
 * the analysis is a fatal result, the run goes on).
 */
export async function lintPythonFile(text: string, filePath: string, ruleOptions?: SharedRuleOptions): Promise<ESLint.LintResult> {
  try {
    const { messages, suppressedMessages } = await lintPythonText(text, { prefilter: false, ruleOptions });
    return makeResult(filePath, messages, suppressedMessages, text);
  } catch (error) {
    return crashResult(filePath, error);
  }
}

/** The pre-filter: whether a Python text can hold a site under these rule options (most files cannot and are not parsed). */
export function mayReportPython(text: string, ruleOptions?: SharedRuleOptions): boolean {
  return mayReport(text, pythonAnalysisOptions(ruleOptions));
}
