import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { commonJsOptions, javaScriptOptions, typeScriptOptions } from '../rules/parser-options.js';
import plugin from '../rules/index.js';
import { RULE_ID } from './rule-id.js';
import { ruleEntry, type CliRuleOptions } from './rule-args.js';

const JS_MODULE_FILES = ['**/*.js', '**/*.jsx', '**/*.mjs'];
const JS_COMMONJS_FILES = ['**/*.cjs'];
const TS_FILES = ['**/*.ts', '**/*.mts', '**/*.cts'];
const TSX_FILES = ['**/*.tsx'];

export interface ESLintSetupOptions {
  /** Directory used as `tsconfigRootDir` for the TypeScript project service. Default: `process.cwd()`. */
  cwd?: string;
  /** Rule option `useTypes` and type information for TypeScript files (project service). */
  types?: boolean;
  /**
   * TypeScript programs that provide type information instead of the project service
   * (for files no tsconfig includes). Only used with `types`.
   */
  programs?: unknown[];
  /** Parse `.js`/`.jsx` as sloppy-mode CommonJS scripts instead of ES modules (a fallback for old code). */
  scriptMode?: boolean;
  /** The rule options given on the command line (`--terminal-pattern`, `--close-method`). */
  ruleOptions?: CliRuleOptions;
}

/** What `--types` adds to the TypeScript parser options: the project service, or given programs. */
function typeInformation(options: ESLintSetupOptions): Linter.ParserOptions {
  if (!options.types) return {};
  if (options.programs) return { programs: options.programs, project: false };
  return { projectService: true, tsconfigRootDir: options.cwd ?? process.cwd() };
}

/** The parser of each kind of file (rules/parser-options.ts) as flat config blocks; bench:lint times ESLint with the same. */
export function languageConfigs(options: ESLintSetupOptions = {}): Linter.Config[] {
  const types = typeInformation(options);
  return [
    { files: JS_MODULE_FILES, languageOptions: javaScriptOptions({ scriptMode: options.scriptMode }) },
    { files: JS_COMMONJS_FILES, languageOptions: commonJsOptions() },
    { files: TS_FILES, languageOptions: typeScriptOptions(false, types) },
    { files: TSX_FILES, languageOptions: typeScriptOptions(true, types) },
  ];
}

/**
 * drainguard's own flat config: espree for JavaScript, @typescript-eslint/parser for TypeScript,
 * only `drainguard/no-early-stream-close` enabled. Never reads the user's ESLint config.
 */
export function drainguardConfig(options: ESLintSetupOptions = {}): Linter.Config[] {
  return [
    // Explicitly named files inside node_modules are processed (the CLI does its own walking).
    { ignores: ['!**/node_modules/'] },
    {
      name: 'drainguard/cli',
      plugins: { drainguard: plugin },
      linterOptions: { reportUnusedDisableDirectives: 'off', reportUnusedInlineConfigs: 'off' },
      rules: { [RULE_ID]: ruleEntry(options.ruleOptions, options.types) },
    },
    ...languageConfigs(options),
  ];
}

/**
 * Builds the ESLint instance the CLI lints with. Its base path is the filesystem root so that
 * files outside the current directory are not "outside of base path".
 */
export function createESLint(options: ESLintSetupOptions = {}): ESLint {
  const cwd = options.cwd ?? process.cwd();
  return new ESLint({
    cwd: path.parse(path.resolve(cwd)).root,
    overrideConfigFile: true,
    overrideConfig: drainguardConfig(options),
    errorOnUnmatchedPattern: false,
  });
}
