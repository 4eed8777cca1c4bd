import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { FRONT_ENDS, frontEndOf } from '../front-ends/registry.js';
import type { InFileHelperTest } from '../front-ends/front-end.js';
import { diffPath } from './diff-paths.js';
import { unifiedDiff, type FileReport } from './report.js';

/**
 * `drainguard fix` writes, with each rewritten file that carries its own drain helpers (a Python module), the test its
 * front end plans for those helpers (unless `--no-test`), so that the file stays covered where the repository measures
 * coverage. The counterpart of cli/fix/helper-test.ts for shared helper modules: the same report (`test`, `framework`,
 * `note`).
 */

/** The tests of the run's rewritten files (their new text) whose front end puts the helpers in the file, in their order. */
export async function planInFileHelperTests(rewritten: ReadonlyArray<{ file: string; text: string }>): Promise<InFileHelperTest[]> {
  const tests: InFileHelperTest[] = [];
  for (const frontEnd of FRONT_ENDS) {
    if (frontEnd.fix.helper.kind !== 'in-file') continue;
    const files = rewritten.filter((entry) => frontEndOf(entry.file) === frontEnd);
    if (files.length > 0) tests.push(...(await frontEnd.fix.helper.planTests(files)));
  }
  return tests;
}

/** The files `fix` will write for the tests (the refusal on uncommitted changes and `--print`'s diff root take them). */
export function inFileHelperTestPaths(tests: readonly InFileHelperTest[]): string[] {
  return tests.filter((test) => test.text !== null).map((test) => test.path);
}

/**
 * Writes a test (unless `dry`, or its module was not written) and returns its report: `test: "created"`, `"updated"` or
 * `"not written"` with the reason, its diff where `patchRoot` is given.
 */
export async function writeInFileHelperTest(
  test: InFileHelperTest,
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
