import type { ESLint } from 'eslint';
import type { SharedRuleOptions } from '../../rules/contract/rule-options.js';
import { mayReportPython as mayReport } from '../../rules/python/analyze.js';
import { pythonAnalysisOptions } from '../../rules/python/options.js';
import { lintPythonText } from '../../rules/python/lint.js';
import { crashResult, makeResult } from '../shared/results.js';
import type { FrontEnd, InFileHelperTest } from './front-end.js';

/**
 * Python: its own analysis on tree-sitter (rules/python/), run by `lint` in process with the same rule options;
 * `fix` rewrites with codemods/python/rewrite.ts, which puts the drain helpers in the rewritten module itself.
 */
export const PYTHON: FrontEnd = {
  name: 'Python',
  extensions: ['.py'],
  prefilter: (ruleOptions) => (text) => mayReportPython(text, ruleOptions),
  lint: { kind: 'own-analysis', lintFile: lintPythonFile },
  fix: {
    rewrite: async (source, filePath, { bounds, ruleOptions }) => {
      const { rewritePython } = await import('../../codemods/python/rewrite.js');
      return rewritePython(source, { ...bounds, ruleOptions, filePath });
    },
    helper: { kind: 'in-file', planTests: planPythonHelperTests },
  },
};

/**
 * The lint result of a Python file the pre-filter kept (see mayReportPython), shaped as ESLint shapes one (a crash of
 * the analysis is a fatal result, the run goes on).
 */
async function lintPythonFile(text: string, filePath: string, ruleOptions?: SharedRuleOptions): Promise<ESLint.LintResult> {
  try {
    const { messages, suppressedMessages } = await lintPythonText(text, { prefilter: false, ruleOptions });
    return makeResult(filePath, messages, suppressedMessages, text);
  } catch (error) {
    return crashResult(filePath, error);
  }
}

/** The pre-filter: whether a Python text can hold a site under these rule options (most files cannot and are not parsed). */
function mayReportPython(text: string, ruleOptions?: SharedRuleOptions): boolean {
  return mayReport(text, pythonAnalysisOptions(ruleOptions));
}

/**
 * The pytest test `fix` writes with each Python module it gives a drain helper, in the repository's test folder and
 * async style (codemods/python/helper-test-file.ts), so that the module stays covered where the repository measures
 * coverage; in the modules' order, none for a module whose test would not change.
 */
async function planPythonHelperTests(modules: ReadonlyArray<{ file: string; text: string }>): Promise<InFileHelperTest[]> {
  const { planPythonHelperTest } = await import('../../codemods/python/helper-test-file.js');
  const tests: InFileHelperTest[] = [];
  const taken = new Set<string>();
  for (const module of modules) {
    const test = planPythonHelperTest(module.file, module.text, taken);
    if (!test) continue;
    taken.add(test.path);
    tests.push(test);
  }
  return tests;
}
