import path from 'node:path';
import type { ESLint, Linter } from 'eslint';
import { commonJsOptions, javaScriptOptions, typeScriptOptions } from '../../rules/parser-options.js';
import plugin from '../../rules/index.js';
import { requireFlatConfigArray } from '../../rules/eslint-types.js';
import { isTypeScriptFile, loadTypeScriptScopes, nativeParser } from './native-parser.js';
import { makeResult } from '../shared/results.js';
import { RULE_ID } from '../shared/rule-id.js';
import { ruleEntry, type CliRuleOptions } from '../shared/rule-args.js';

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
  /** Parse every file with the native parser (cli/engines/native-parser.ts) instead of espree and typescript-eslint's parser; not with `types`. */
  native?: boolean;
}

/** What `--types` adds to the TypeScript parser options: the project service, or given programs. */
function typeInformation(options: ESLintSetupOptions): Linter.ParserOptions {
  if (!options.types) return {};
  if (options.programs) return { programs: options.programs, project: false };
  return { projectService: true, tsconfigRootDir: options.cwd ?? process.cwd() };
}

/**
 * The parser of each kind of file (rules/parser-options.ts) as flat config blocks, or the native parser with
 * the same options; bench:lint times ESLint with the usual parsers.
 */
export function languageConfigs(options: ESLintSetupOptions = {}): Linter.Config[] {
  const types = typeInformation(options);
  const parsedBy = (languageOptions: Linter.LanguageOptions): Linter.LanguageOptions =>
    options.native && !options.types ? { ...languageOptions, parser: nativeParser } : languageOptions;
  return [
    { files: JS_MODULE_FILES, languageOptions: parsedBy(javaScriptOptions({ scriptMode: options.scriptMode })) },
    { files: JS_COMMONJS_FILES, languageOptions: parsedBy(commonJsOptions()) },
    { files: TS_FILES, languageOptions: parsedBy(typeScriptOptions(false, types)) },
    { files: TSX_FILES, languageOptions: parsedBy(typeScriptOptions(true, types)) },
  ];
}

/**
 * The plugin as the CLI configures it: its rules without `meta.schema`, so that ESLint does not compile
 * the option schemas with ajv on every run (tens of milliseconds, most of it in resolving schema URIs).
 * The CLI checks the options it passes itself (cli/shared/rule-args.ts).
 */
const cliPlugin: ESLint.Plugin = {
  ...plugin,
  rules: Object.fromEntries(Object.entries(plugin.rules).map(([name, rule]) => [name, { ...rule, meta: { ...rule.meta, schema: false } }])),
};

/**
 * drainguard's own flat config: espree for JavaScript, @typescript-eslint/parser for TypeScript (or the
 * native parser for both), only `drainguard/no-early-stream-close` enabled. Never reads the user's ESLint config.
 */
export function drainguardConfig(options: ESLintSetupOptions = {}): Linter.Config[] {
  return [
    // Explicitly named files inside node_modules are processed (the CLI does its own walking).
    { ignores: ['!**/node_modules/'] },
    {
      name: 'drainguard/cli',
      plugins: { drainguard: cliPlugin },
      linterOptions: { reportUnusedDisableDirectives: 'off', reportUnusedInlineConfigs: 'off' },
      rules: { [RULE_ID]: ruleEntry(options.ruleOptions, options.types) },
    },
    ...languageConfigs(options),
  ];
}

/**
 * Builds the ESLint instance the CLI lints with (and formats stylish output with). Its base path is the
 * filesystem root so that files outside the current directory are not "outside of base path".
 */
export async function createESLint(options: ESLintSetupOptions = {}): Promise<ESLint> {
  const { ESLint } = await import('eslint');
  const cwd = options.cwd ?? process.cwd();
  return new ESLint({
    cwd: path.parse(path.resolve(cwd)).root,
    overrideConfigFile: true,
    overrideConfig: drainguardConfig(options),
    errorOnUnmatchedPattern: false,
  });
}

declare module 'eslint' {
  interface Linter {
    /** Documented in ESLint's Node.js API (Linter#getSuppressedMessages), missing from its type declarations. */
    getSuppressedMessages(): Linter.SuppressedLintMessage[];
  }
}

/** Lints one text as the content of a file (an absolute path). */
export type TextLint = (text: string, filePath: string) => Promise<ESLint.LintResult>;

/**
 * Lints with ESLint's core `Linter`, the native parser and drainguard's config: without the ESLint class,
 * whose file, ignore and config-file machinery is slow to load and which the CLI does
 * not use (it walks, reads and configures itself). The result is shaped as the ESLint class shapes it.
 */
export async function createNativeLint(options: Pick<ESLintSetupOptions, 'ruleOptions'> = {}): Promise<TextLint> {
  const { Linter } = await import('eslint/universal');
  // The root as base path, as in createESLint: the config's globs then match every absolute path.
  const root = path.parse(process.cwd()).root;
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = configByExtension(drainguardConfig({ ...options, native: true }), root);
  return async (text, filePath) => {
    if (isTypeScriptFile(filePath)) await loadTypeScriptScopes();
    const messages = linter.verify(text, config, { filename: filePath });
    return makeResult(filePath, messages, linter.getSuppressedMessages(), text);
  };
}

/**
 * The config as `Linter#verify` takes it, built once: given plain config objects, verify builds and normalizes a
 * config array for every file, and matches every block's globs against the file's path, which costs more than the
 * verify of a small file itself. drainguard's config chooses by extension alone (it ignores nothing: node_modules is
 * linted, and `.git/` is ignored only at the root, its base path), so each extension's config is looked up once, for
 * a file of that extension at the root. An extension that no block takes gets ESLint's own answer for the real path.
 * With an ESLint that keeps its config array elsewhere, the plain config objects.
 */
function configByExtension(config: Linter.Config[], root: string): Linter.Config[] {
  const FlatConfigArray = requireFlatConfigArray();
  if (!FlatConfigArray) return config;
  const array = new FlatConfigArray(config, { basePath: root });
  array.normalizeSync();
  const byExtension = new Map<string, object | undefined>();
  const getConfig = (filePath: string): object | undefined => {
    const extension = path.extname(filePath);
    if (!byExtension.has(extension)) byExtension.set(extension, array.getConfig(path.join(root, `file${extension}`)));
    return byExtension.get(extension) ?? array.getConfig(filePath);
  };
  return Object.assign([...array], { getConfig });
}
