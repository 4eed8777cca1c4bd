import type { Linter } from 'eslint';
import { analyzePython, mayReportPython } from './analyze.js';
import { firstSyntaxError, parsePython } from './parser.js';

const RULE_ID = 'drainguard/no-early-stream-close';
/** `# drainguard-disable-next-line` on the line before a site, or `# drainguard-disable-line` at the end of its line. */
const DISABLE_NEXT_LINE = /^\s*#\s*drainguard-disable-next-line\b/;
const DISABLE_LINE = /#\s*drainguard-disable-line\b/;

export function isPythonPath(file: string): boolean {
  return /\.py$/i.test(file);
}

export interface PythonLintOutput {
  messages: Linter.LintMessage[];
  suppressedMessages: Linter.SuppressedLintMessage[];
}

/** Lints a Python text: drainguard's messages (as ESLint shapes them) and those a disable comment silences. */
export async function lintPythonText(text: string, prefilter = true): Promise<PythonLintOutput> {
  if (prefilter && !mayReportPython(text)) return { messages: [], suppressedMessages: [] };
  const tree = await parsePython(text);
  try {
    const error = firstSyntaxError(tree.rootNode);
    if (error) {
      const { row, column } = error.startPosition;
      const what = error.isMissing ? `missing ${error.type}` : 'invalid syntax';
      return {
        messages: [{ ruleId: null, fatal: true, severity: 2, message: `Parsing error: ${what}`, line: row + 1, column: column + 1 }],
        suppressedMessages: [],
      };
    }
    const lines = text.split(/\r\n|\r|\n/);
    const messages: Linter.LintMessage[] = [];
    const suppressedMessages: Linter.SuppressedLintMessage[] = [];
    for (const report of analyzePython(tree, text)) {
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
      const disabled = DISABLE_NEXT_LINE.test(lines[report.line - 2] ?? '') || DISABLE_LINE.test(lines[report.line - 1] ?? '');
      if (disabled) suppressedMessages.push({ ...message, suppressions: [{ kind: 'directive', justification: '' }] });
      else messages.push(message);
    }
    return { messages, suppressedMessages };
  } finally {
    tree.delete();
  }
}
