// The project lints itself: typescript-eslint's parser for TypeScript, and eslint-plugin-eslint-plugin's
// recommended rules for the rule sources (rules/**/*.ts). `npm run lint:self` and test/self-lint run it.
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['dist/', 'node_modules/', '**/fixtures/', 'examples/', 'coverage/']),
  {
    name: 'drainguard/typescript',
    files: ['**/*.ts', '**/*.mts', '**/*.cts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
  },
  {
    name: 'drainguard/rules',
    files: ['rules/**/*.ts'],
    extends: [eslintPlugin.configs.recommended],
  },
]);
