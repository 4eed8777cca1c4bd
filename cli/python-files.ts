import type { ESLint } from 'eslint';
import { isPythonPath, lintPythonText } from '../rules/python/lint.js';
import { crashResult, makeResult } from './results.js';

export { isPythonPath };

/** The lint result of a Python file, shaped as ESLint shapes one (a crash of the analysis is a fatal result, the run goes on). */
export async function lintPythonFile(text: string, filePath: string, prefilter: boolean): Promise<ESLint.LintResult> {
  try {
    const { messages, suppressedMessages } = await lintPythonText(text, prefilter);
    return makeResult(filePath, messages, suppressedMessages, text);
  } catch (error) {
    return crashResult(filePath, error);
  }
}

export { mayReportPython } from '../rules/python/analyze.js';
