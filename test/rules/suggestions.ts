import { rewrite } from '../../codemods/rewrite.js';
import type { ExpectedError, InvalidCase } from './cases.js';

export interface ExpectedSuggestion {
  messageId: 'drainInBackground';
  data: { budget: string };
  output: string;
}

/**
 * The suggestion the rule must offer on each expected error: what `drainguard fix` does to that one site (rewritten
 * with the codemod's own entry point, limited to that site), or none where the codemod leaves the site manual.
 */
export function withSuggestions(testCase: InvalidCase, filename: string, extra: { types?: boolean; cwd?: string } = {}): Array<ExpectedError & { suggestions: ExpectedSuggestion[] }> {
  const ruleOptions = { ...testCase.options?.[0] };
  delete ruleOptions.useTypes;
  return testCase.errors.map((error) => {
    const only = { line: error.line, column: error.column };
    const result = rewrite(testCase.code, filename, { ruleOptions, only, ...extra });
    const site = result.sites.find((candidate) => candidate.line === error.line && candidate.column === error.column);
    const suggestions =
      site?.status === 'fixed' && result.output !== null
        ? [{ messageId: 'drainInBackground' as const, data: { budget: '1000' }, output: result.output }]
        : [];
    return { ...error, suggestions };
  });
}
