import type { Linter } from 'eslint';
import { RULE_ID } from '../contract/messages.js';
import type { SharedRuleOptions } from '../contract/rule-options.js';
import { analyzePython, mayReportPython } from './analyze.js';
import { pythonAnalysisOptions } from './options.js';
import { parsePython } from './parser.js';
import { isSuppressed } from '../contract/suppression.js';
import { pythonSyntaxError } from './syntax-error.js';

export interface PythonLintOutput {
  messages: Linter.LintMessage[];
  suppressedMessages: Linter.SuppressedLintMessage[];
}

export interface PythonLintOptions {
  /** Skip the parse of a text that cannot hold a site (default true). */
  prefilter?: boolean;
  /** `terminalPatterns` / `closeMethods`, as `lint` and `fix` take them. */
  ruleOptions?: SharedRuleOptions;
}

/** Lints a Python text: drainguard's messages (as ESLint shapes them) and those a disable comment silences. */
export async function lintPythonText(text: string, options: PythonLintOptions = {}): Promise<PythonLintOutput> {
  const analysis = pythonAnalysisOptions(options.ruleOptions);
  if ((options.prefilter ?? true) && !mayReportPython(text, analysis)) return { messages: [], suppressedMessages: [] };
  const tree = await parsePython(text);
  try {
    const error = pythonSyntaxError(tree, text);
    if (error) {
      return {
        messages: [{ ruleId: null, fatal: true, severity: 2, message: `Parsing error: ${error.message}`, line: error.line, column: error.column }],
        suppressedMessages: [],
      };
    }
    const lines = text.split(/\r\n|\r|\n/);
    const messages: Linter.LintMessage[] = [];
    const suppressedMessages: Linter.SuppressedLintMessage[] = [];
    for (const report of analyzePython(tree, text, analysis)) {
      const message: Linter.LintMessage = {
        ruleId: RULE_ID,
        severity: 2,
        message: report.message,
        line: report.line,
        column: report.column,
        messageId: report.site.kind === 'explicit' ? 'explicitClose' : 'implicitClose',
        endLine: report.endLine,
        endColumn: report.endColumn,
      };
      if (isSuppressed(lines, report.line)) suppressedMessages.push({ ...message, suppressions: [{ kind: 'directive', justification: '' }] });
      else messages.push(message);
    }
    return { messages, suppressedMessages };
  } finally {
    tree.delete();
  }
}
