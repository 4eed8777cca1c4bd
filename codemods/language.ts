import type { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';

const TS_EXTENSIONS = /\.(ts|tsx|mts|cts)$/i;

export function isTypeScriptPath(filePath: string): boolean {
  return TS_EXTENSIONS.test(filePath);
}

/** The parser and options drainguard uses for a file, chosen by its extension (espree for JS, typescript-eslint for TS). */
export function languageOptionsFor(filePath: string): Linter.LanguageOptions {
  // Same choices as `drainguard lint` (cli/eslint-setup.ts), so fix parses every file lint reports on:
  // JSX on in .js/.jsx/.mjs and .tsx, off in .cjs and .ts/.mts/.cts.
  if (isTypeScriptPath(filePath)) {
    return { parser: tsParser as Linter.Parser, parserOptions: { ecmaFeatures: { jsx: /\.tsx$/i.test(filePath) } }, sourceType: 'module' };
  }
  if (/\.cjs$/i.test(filePath)) return { ecmaVersion: 'latest', sourceType: 'commonjs' };
  return { ecmaVersion: 'latest', sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } };
}
