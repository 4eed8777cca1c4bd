/**
 * The helper module `drainguard fix` writes passes oxlint's correctness, suspicious and perf categories and the rules
 * maintainers named against the earlier helpers, through oxlint's own binary (a process). The ESLint presets and the
 * strict type-check, in process: test/codemod/helper-lint.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { helperModuleText } from '../../../rules/fix/helper-module.js';
import type { PieceName } from '../../../rules/fix/helpers.js';
import { detectStyle } from '../../../rules/fix/style.js';
import { drainBounds } from '../../../rules/contract/drain-options.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ALL_PIECES: PieceName[] = ['drainReader', 'drainIterator', 'drainable', 'drainableBody', 'tapBody', 'tapResponse', 'drainNodeStream'];
const work = mkdtempSync(join(tmpdir(), 'drainguard-helper-lint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function moduleText(typescript: boolean, semicolons = true): string {
  const sample = semicolons ? 'export const a = 1;\n' : 'export const a = 1\n';
  return helperModuleText(ALL_PIECES, detectStyle(sample, typescript), drainBounds());
}

describe('the helper module (every piece)', () => {
  it("passes oxlint's correctness, suspicious and perf categories and the rules maintainers named", async () => {
    writeFileSync(join(work, 'drain-body.ts'), moduleText(true));
    writeFileSync(join(work, 'drain-body.js'), moduleText(false));
    const oxlint = join(ROOT, 'node_modules/.bin/oxlint');
    const rules = ['correctness', 'suspicious', 'perf', 'curly', 'no-sequences', 'no-nested-ternary', 'no-empty-function', 'typescript/method-signature-style', 'typescript/no-explicit-any', 'unicorn/no-await-expression-member', 'promise/prefer-await-to-then', 'unicorn/no-useless-undefined', 'unicorn/no-negated-condition'];
    const { stdout } = await run(oxlint, ['--promise-plugin', ...rules.flatMap((rule) => ['-D', rule]), 'drain-body.ts', 'drain-body.js'], { cwd: work });
    expect(stdout).toContain('Found 0 warnings and 0 errors.');
  }, 60_000);
});
