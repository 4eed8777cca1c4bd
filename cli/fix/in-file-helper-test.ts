import { FRONT_ENDS, frontEndOf } from '../front-ends/registry.js';
import type { InFileHelperTest } from '../front-ends/front-end.js';

/**
 * `drainguard fix` writes, with each rewritten file that carries its own drain helpers (a Python module), the test its
 * front end plans for those helpers (unless `--no-test`), so that the file stays covered where the repository measures
 * coverage. The counterpart of cli/fix/helper-test.ts for shared helper modules, which writes both kinds
 * (`writeHelperTest`) with the same report (`test`, `framework`, `note`).
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
