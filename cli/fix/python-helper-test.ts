import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { planPythonHelperTest, type PythonHelperTestPlan } from '../../codemods/python/helper-test-file.js';
import { diffPath } from './diff-paths.js';
import { unifiedDiff, type FileReport } from './report.js';

/**
 * `drainguard fix` writes, with each Python module it gives a drain helper, a pytest test of that helper in the
 * repository's test folder and async style (unless `--no-test`; codemods/python/helper-test-file.ts), so that the
 * module stays covered where the repository measures coverage. The Python counterpart of cli/fix/helper-test.ts:
 * the same report (`test`, `framework`, `note`).
 */

/** The tests of the run's rewritten Python modules (their new text), in their order; a module whose test would not change has none. */
export function planPythonHelperTests(modules: ReadonlyArray<{ file: string; text: string }>): PythonHelperTestPlan[] {
  const tests: PythonHelperTestPlan[] = [];
  const taken = new Set<string>();
  for (const module of modules) {
    const test = planPythonHelperTest(module.file, module.text, taken);
    if (!test) continue;
    taken.add(test.path);
    tests.push(test);
  }
  return tests;
}

/** The files `fix` will write for the tests (the refusal on uncommitted changes and `--print`'s diff root take them). */
export function pythonHelperTestPaths(tests: readonly PythonHelperTestPlan[]): string[] {
  return tests.filter((test) => test.text !== null).map((test) => test.path);
}

/**
 * Writes a test (unless `dry`, or its module was not written) and returns its report: `test: "created"`, `"updated"` or
 * `"not written"` with the reason, its diff where `patchRoot` is given.
 */
export async function writePythonHelperTest(
  test: PythonHelperTestPlan,
  { dry, patchRoot, moduleWritten }: { dry: boolean; patchRoot: string | undefined; moduleWritten: boolean },
): Promise<FileReport> {
  if (test.text === null) return { path: test.path, changed: false, sites: [], test: 'not written', note: test.skipped ?? '' };
  if (!moduleWritten) return { path: test.path, changed: false, sites: [], test: 'not written', note: 'its module could not be written' };
  const report: FileReport = { path: test.path, changed: true, sites: [], test: test.existing === null ? 'created' : 'updated', framework: test.framework, ...(test.note ? { note: test.note } : {}) };
  if (patchRoot !== undefined) report.diff = unifiedDiff(diffPath(patchRoot, test.path), test.existing, test.text);
  if (dry) return report;
  try {
    await mkdir(path.dirname(test.path), { recursive: true });
    await writeFileAtomic(test.path, test.text, { encoding: 'utf8' });
  } catch (error) {
    return { path: test.path, changed: false, sites: [], error: `cannot write: ${error instanceof Error ? error.message : String(error)}` };
  }
  return report;
}
