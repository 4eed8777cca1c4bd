// The project lints itself: typescript-eslint's type-checked recommended rules on every TypeScript
// file the tsconfig covers (sources, tests, bench), its untyped recommended rules on the JavaScript
// modules (scripts, bench, test support), and eslint-plugin-eslint-plugin's recommended rules on the
// rule sources (rules/**/*.ts), and the direction of imports between the layers of docs/architecture.md (eslint-plugin-import-x's
// no-restricted-paths). `npm run lint:self` and test/self-lint run it.
import { join } from 'node:path';
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
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
        // Files no tsconfig includes: vitest's config, and the texts test/self-lint lints from memory (more of them than
        // typescript-eslint allows by default: one per layer and per folder of the CLI).
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'rules/broken-example.ts', 'rules/wrong-way-example.ts', 'rules/*/wrong-way-example.ts', 'codemods/wrong-way-example.ts', 'cli/*/wrong-way-example.ts', 'testing/wrong-way-example.ts', 'transport/wrong-way-example.ts'],
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
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
    files: ['rules/javascript/branch-tests.ts', 'rules/javascript/eof.ts', 'rules/javascript/function-results.ts', 'rules/javascript/helper-calls.ts', 'rules/javascript/streams.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  {
    name: 'drainguard/rules',
    files: ['rules/**/*.ts'],
    extends: [eslintPlugin.configs.recommended],
  },
  {
    name: 'drainguard/layers',
    files: ['rules/**/*.ts', 'codemods/**/*.ts', 'codemods/**/*.cts', 'cli/**/*.ts', 'testing/**/*.ts', 'transport/**/*.ts', 'transport/**/*.cts'],
    plugins: { 'import-x': importX },
    settings: {
      // Sources import each other as `./x.js`, which is `x.ts` before the build.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.cts', '.mts', '.js', '.cjs', '.mjs', '.json'], extensionAlias: { '.js': ['.ts', '.js'], '.cjs': ['.cts', '.cjs'] } })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones() }] },
  },
]);

/**
 * Imports run one way (docs/architecture.md): shared contract <- analysis core <- language front ends <- fix planning <-
 * rule <- codemod, CLI. A zone's `target` files may not import its `from` files.
 */
function layerZones() {
  const shared = ['rules/eslint-types.ts', 'rules/parser-options.ts'];
  const layers = [
    { name: 'the shared contract', files: ['rules/contract/**', ...shared] },
    { name: 'the analysis core', files: ['rules/core/**'] },
    { name: 'the language front ends', files: ['rules/javascript/**', 'rules/python/**'] },
    { name: 'fix planning', files: ['rules/fix/**'] },
    { name: 'the rule', files: ['rules/*.ts'] },
    { name: 'the codemod', files: ['codemods/**'] },
    { name: 'the CLI', files: ['cli/**'] },
  ];
  // A glob (the rule wants one where `from` holds globs): rules/*.ts also holds the shared adapters beside the rule.
  const sharedAdapters = join(import.meta.dirname, 'rules/{eslint-types,parser-options}.ts');
  const zones = layers.slice(0, 6).map((layer, index) => ({
    target: layer.files,
    from: layers.slice(index + 1).flatMap((above) => above.files),
    except: [sharedAdapters],
    message: `${layer.name} may import only the layers below it (docs/architecture.md).`,
  }));
  // The codemod and the CLI both sit on the rule; the CLI may use the codemod, not the other way round.
  zones[5].from = ['cli/**'];
  zones[5].except = [];
  // The front ends meet only in the core and the contract: what one language learns, the other learns there.
  zones.push({ target: ['rules/javascript/**'], from: ['rules/python/**'], except: [], message: 'the JavaScript front end imports nothing of the Python one (docs/architecture.md).' });
  zones.push({ target: ['rules/python/**'], from: ['rules/javascript/**'], except: [], message: 'the Python front end imports nothing of the JavaScript one (docs/architecture.md).' });
  // drainguard/testing is the test kit users import: Node built-ins only.
  zones.push({ target: ['testing/**'], from: ['rules/**', 'codemods/**', 'cli/**', 'transport/**'], except: [], message: 'drainguard/testing uses Node built-ins only.' });
  // drainguard/undici, the transport: Node built-ins and undici, nothing of the project's.
  zones.push({ target: ['transport/**'], from: ['rules/**', 'codemods/**', 'cli/**', 'testing/**'], except: [], message: 'drainguard/undici imports nothing of the project (Node built-ins and undici only).' });
  return [...zones, ...cliZones()];
}

/**
 * Inside the CLI (docs/architecture.md): cli/main.ts and cli/bin.ts on the commands, each command (lint/, fix/, serve/,
 * prove/) on the front ends and the engines, and all of them on shared/. A command imports no other command; the
 * engines and the front ends import each other no more than they import a command.
 */
function cliZones() {
  // cli/main.ts and cli/bin.ts, as a glob: the rule wants `from` all globs or none.
  const entry = ['cli/*.ts'];
  const commands = ['lint', 'fix', 'serve', 'prove'].map((command) => `cli/${command}/**`);
  const zone = (target, from, message) => ({ target, from, except: [], message: `${message} (docs/architecture.md).` });
  return [
    zone(['cli/shared/**'], [...entry, ...commands, 'cli/engines/**', 'cli/front-ends/**'], "the CLI's shared modules import no command, engine or front end"),
    zone(['cli/engines/**'], [...entry, ...commands, 'cli/front-ends/**'], 'the engines import no command and no front end'),
    zone(['cli/front-ends/**'], [...entry, ...commands, 'cli/engines/**'], 'the front ends import no command and no engine'),
    ...commands.map((command) => zone([command], [...entry, ...commands.filter((other) => other !== command)], 'a command imports no other command')),
  ];
}
