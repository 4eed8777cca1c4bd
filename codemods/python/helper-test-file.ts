import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { helpersInModule, isPythonHelperTest, pythonHelperTestText } from './helper-test.js';
import { pythonTestLayout } from './test-layout.js';

/** The test of one rewritten module's drain helpers: what to write where, or why nothing is written. */
export interface PythonHelperTestPlan {
  path: string;
  modulePath: string;
  framework: 'pytest';
  /** The text to write; null where it is not written (`skipped` says why). */
  text: string | null;
  /** The test drainguard wrote there earlier (null: none). */
  existing: string | null;
  skipped?: string;
  /** What the report adds (pytest's `testpaths` miss the file). */
  note?: string;
}

/**
 * The test of the drain helpers of a module as the run rewrites it (`text`), null where the module has none of
 * drainguard's or the test there would not change. `taken`: the test paths of the run's other modules (two modules
 * of one name get their package in the test's name).
 */
export function planPythonHelperTest(modulePath: string, text: string, taken: ReadonlySet<string> = new Set()): PythonHelperTestPlan | null {
  const helpers = helpersInModule(text);
  if (helpers.length === 0) return null;
  const layout = pythonTestLayout(modulePath);
  let testPath = layout.path;
  if (taken.has(testPath)) {
    const parent = layout.module.split('.').at(-2) ?? path.basename(path.dirname(modulePath));
    const base = path.basename(testPath);
    testPath = path.join(path.dirname(testPath), base.replace(/^test_/, `test_${parent}_`).replace(/^(?!test_)/, `${parent}_`));
  }
  const base = { path: testPath, modulePath, framework: 'pytest' as const, text: null, existing: null };
  if (layout.skipped) return { ...base, skipped: layout.skipped };
  const current = existsSync(testPath) ? readFileSync(testPath, 'utf8') : null;
  if (current !== null && !isPythonHelperTest(current)) return { ...base, skipped: 'a file drainguard did not write is there; it is left as it is' };
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /:[ \t]*(?:#[^\n]*)?\r?\n(?:[ \t]*\r?\n)*([ \t]+)\S/.exec(text)?.[1] ?? '    ';
  const testText = pythonHelperTestText({
    module: layout.module,
    helpers,
    http: /^\s*(?:import httpx2\b|from httpx2\b)/m.test(text) ? 'httpx2' : 'httpx',
    asyncStyle: layout.asyncStyle,
    markAsync: layout.markAsync,
    python310: layout.python310,
    python311: layout.python311,
    importComment: layout.importComment,
    isort: layout.project.isort,
    quote: quoteOf(text),
    indent,
    newline,
    lineLength: layout.project.isort.lineLength,
  });
  if (testText === current) return null;
  const note = layout.notPickedUpBy ? `${path.basename(layout.notPickedUpBy)} does not pick it up as it reads: add it to its test patterns` : undefined;
  return { ...base, text: testText, existing: current, ...(note ? { note } : {}) };
}

/** The quote most of the module's strings open with. */
function quoteOf(text: string): '"' | "'" {
  const opening = (quote: string): number => text.split(new RegExp(`(?:^|[\\s(\\[{,=:])[rbuRBUfF]{0,2}${quote}`, 'm')).length - 1;
  return opening("'") > opening('"') ? "'" : '"';
}
