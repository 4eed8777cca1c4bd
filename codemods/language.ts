import type { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';

const TS_EXTENSIONS = /\.(ts|tsx|mts|cts)$/i;

export function isTypeScriptPath(filePath: string): boolean {
  return TS_EXTENSIONS.test(filePath);
}

/** The parser and options drainguard uses for a file, chosen by its extension (espree for JS, typescript-eslint for TS). */
export function languageOptionsFor(filePath: string): Linter.LanguageOptions {
  const jsx = /\.(jsx|tsx)$/i.test(filePath);
  if (isTypeScriptPath(filePath)) {
    return { parser: tsParser as Linter.Parser, parserOptions: { ecmaFeatures: { jsx } }, sourceType: 'module' };
  }
  return {
    ecmaVersion: 'latest',
    sourceType: /\.cjs$/i.test(filePath) ? 'commonjs' : 'module',
    parserOptions: { ecmaFeatures: { jsx } },
  };
}
