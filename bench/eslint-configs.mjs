// Flat configs for bench/lint.mjs: the same parsers drainguard's CLI uses (espree for JS,
// typescript-eslint's parser for TS), with the rules under comparison or with no rule at all.
import tsParser from '@typescript-eslint/parser';
import drainguard from '../dist/index.js';

const languages = [
  { files: ['**/*.{js,jsx,mjs}'], languageOptions: { ecmaVersion: 'latest', sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } } },
  { files: ['**/*.cjs'], languageOptions: { ecmaVersion: 'latest', sourceType: 'commonjs' } },
  { files: ['**/*.{ts,tsx,mts,cts}'], languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } } },
  { ignores: ['**/*.d.ts', '**/*.d.mts', '**/*.d.cts'] },
  { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
];

export const parseOnly = languages;

// The first rule ESLint runs on a file pays for the first look-ups on that file's fresh rule context
// (measured: no-unreachable's create() takes about 10 ms over the corpus when it runs second and about
// 60 ms when it runs first), so bench/lint.mjs times both orders.
export const ruleVersusNoUnreachable = [
  ...languages,
  { plugins: { drainguard }, rules: { 'drainguard/no-early-stream-close': 'error', 'no-unreachable': 'error' } },
];

export const noUnreachableVersusRule = [
  ...languages,
  { plugins: { drainguard }, rules: { 'no-unreachable': 'error', 'drainguard/no-early-stream-close': 'error' } },
];
