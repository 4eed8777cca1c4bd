// Flat configs for bench/lint.mjs: the CLI's own parser for each kind of file (espree for JS,
// typescript-eslint's parser for TS; cli/engines/eslint-setup.ts), with the rules under comparison or with no rule at all.
import drainguard from '../dist/index.js';
import { languageConfigs } from '../dist/eslint-setup.js';

const languages = [
  ...languageConfigs(),
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
