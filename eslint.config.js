// The project lints itself: typescript-eslint's type-checked recommended rules on every TypeScript
// file the tsconfig covers (sources, tests, bench), its untyped recommended rules on the JavaScript
// modules (scripts, bench, test support), and eslint-plugin-eslint-plugin's recommended rules on the
// rule sources (rules/**/*.ts). `npm run lint:self` and test/self-lint run it.
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['dist/', 'node_modules/', '**/fixtures/', 'examples/', 'coverage/']),
  {
    name: 'drainguard/typescript',
    files: ['**/*.ts', '**/*.mts', '**/*.cts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // Files no tsconfig includes: vitest's config, and the rule text test/self-lint lints from memory.
        projectService: { allowDefaultProject: ['vitest.config.ts', 'rules/broken-example.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    name: 'drainguard/unused',
    files: ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    // `const { omitted, ...rest } = object` is how a test drops a key.
    rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] },
  },
  {
    name: 'drainguard/javascript',
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.recommended],
    languageOptions: { sourceType: 'module' },
  },
  {
    name: 'drainguard/commonjs',
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Scope definitions are compared with their kind strings ('Variable', 'Parameter', …), which still narrows the
    // definition union: the DefinitionType enum lives in @typescript-eslint/scope-manager, whose entry loads every
    // TypeScript lib's globals (~28 ms), too much for the rule's start-up on a JavaScript-only run.
    name: 'drainguard/scope-definition-kinds',
    files: ['rules/analysis/branch-tests.ts', 'rules/analysis/function-results.ts', 'rules/analysis/streams.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  {
    name: 'drainguard/rules',
    files: ['rules/**/*.ts'],
    extends: [eslintPlugin.configs.recommended],
  },
]);
