/**
 * The helper module `drainguard fix` writes must pass the checks SDK repositories run on their own code: typescript-
 * eslint's strict and stylistic type-checked presets, the rules maintainers named against the earlier helpers (braces
 * on every `if`, property-style signatures, no comma operator, no nested ternary, no empty function, no await in a
 * loop, no `await` expression member, await rather than then(), no useless undefined), oxlint's correctness, suspicious and perf categories, and a strict type-check.
 * oxlint runs as a process: test/integration/codemod/helper-lint.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { helperModuleText } from '../../rules/fix/helper-module.js';
import type { PieceName } from '../../rules/fix/helpers.js';
import { detectStyle } from '../../rules/fix/style.js';
import { drainBounds } from '../../rules/contract/drain-options.js';
import { typeDiagnostics } from '../support/type-diagnostics.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ALL_PIECES: PieceName[] = ['drainReader', 'drainIterator', 'drainable', 'drainableBody', 'tapBody', 'tapResponse', 'drainNodeStream'];
const work = mkdtempSync(join(tmpdir(), 'drainguard-helper-lint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const NAMED_RULES: Linter.RulesRecord = {
  curly: ['error', 'all'],
  'no-sequences': 'error',
  'no-nested-ternary': 'error',
  'no-empty-function': 'off',
  '@typescript-eslint/no-empty-function': 'error',
  '@typescript-eslint/method-signature-style': ['error', 'property'],
  'no-await-in-loop': 'error',
  'prefer-const': 'error',
  eqeqeq: 'error',
};

function moduleText(typescript: boolean, semicolons = true): string {
  const sample = semicolons ? 'export const a = 1;\n' : 'export const a = 1\n';
  return helperModuleText(ALL_PIECES, detectStyle(sample, typescript), drainBounds());
}

describe('the helper module (every piece)', () => {
  it('adds no TypeScript diagnostic under strict settings with the DOM lib and Node types', () => {
    expect(typeDiagnostics('/helper-lint/drain-body.ts', moduleText(true))).toEqual([]);
  });

  it("passes typescript-eslint's strict and stylistic type-checked presets and the rules maintainers named", async () => {
    writeFileSync(join(work, 'drain-body.ts'), moduleText(true));
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', lib: ['es2022', 'dom', 'dom.asynciterable'], types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')], noEmit: true, skipLibCheck: true },
        include: ['*.ts'],
      }),
    );
    const eslint = new ESLint({
      cwd: work,
      overrideConfigFile: true,
      overrideConfig: [
        ...tseslint.configs.strictTypeChecked,
        ...tseslint.configs.stylisticTypeChecked,
        { languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: work } }, rules: NAMED_RULES },
      ],
    });
    const [result] = await eslint.lintFiles(['drain-body.ts']);
    expect(result.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}: ${message.message}`)).toEqual([]);
  }, 60_000);

  it('passes ESLint with the same rules as JavaScript, with and without semicolons', async () => {
    const eslint = new ESLint({ cwd: work, overrideConfigFile: true, overrideConfig: [{ files: ['**/*.js'], languageOptions: { sourceType: 'module' }, rules: { ...NAMED_RULES, '@typescript-eslint/no-empty-function': 'off', '@typescript-eslint/method-signature-style': 'off', 'no-empty-function': 'error', 'no-unused-vars': 'error' } }] });
    for (const semicolons of [true, false]) {
      const [result] = await eslint.lintText(moduleText(false, semicolons), { filePath: join(work, 'drain-body.js') });
      expect(result.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}: ${message.message}`)).toEqual([]);
    }
  }, 60_000);
});
