import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import plugin from '../../rules/index.js';

const linter = new Linter({ configType: 'flat' });

/** Lints text with the plugin the way a user's flat config would (`drainguard.configs.recommended`), and any `rules` of ESLint's beside it. */
export function lintText(text: string, filePath: string, rules: Linter.RulesRecord = {}): Linter.LintMessage[] {
  const typescript = /\.(ts|tsx|mts|cts)$/.test(filePath);
  return linter.verify(
    text,
    [
      {
        files: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'],
        languageOptions: typescript
          ? { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: filePath.endsWith('x') } } }
          : { parserOptions: { ecmaFeatures: { jsx: filePath.endsWith('x') } } },
      },
      plugin.configs.recommended,
      { rules },
    ],
    { filename: filePath },
  );
}
