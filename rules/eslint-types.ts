import { createRequire } from 'node:module';
import type { ESLint, Linter, Rule, Scope, SourceCode } from 'eslint';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { parseForESLint } from '@typescript-eslint/parser';
import type { VisitorKeys } from '@typescript-eslint/visitor-keys';

/*
 * ESLint and typescript-eslint describe the same runtime objects with two sets of types: ESLint's use ESTree nodes
 * and its own context, typescript-eslint's use TSESTree nodes (typed by the AST_NODE_TYPES enum) and a context that
 * still lists the legacy methods. Neither set is assignable to the other, although ESLint hands a rule exactly the
 * objects its typescript-eslint types describe. The rule and the analysis are written against typescript-eslint's
 * types; these functions are the one place where the two meet (the plugin object, the CLI's ESLint setup, the
 * codemod's Linter run, the lazily loaded TypeScript parser, tests that hand the rule to ESLint).
 */

/** The typed rule module as ESLint's `Rule.RuleModule` (for plugin objects and ESLint's `Linter`/`RuleTester`). */
export function asESLintRule<MessageIds extends string, Options extends readonly unknown[]>(rule: TSESLint.RuleModule<MessageIds, Options>): Rule.RuleModule {
  return rule as unknown as Rule.RuleModule;
}

/** ESLint's `SourceCode` of a file the rule ran on, typed with TSESTree nodes as the analysis and the codemod read it. */
export function asTypedSourceCode(sourceCode: SourceCode): TSESLint.SourceCode {
  return sourceCode as unknown as TSESLint.SourceCode;
}

/** What @typescript-eslint/parser returns (a TSESTree program), as ESLint's parser interface declares it. */
export function asESLintParseResult(result: ReturnType<typeof parseForESLint>): Linter.ESLintParseResult {
  return result as unknown as Linter.ESLintParseResult;
}

/**
 * A parse result built around a TSESTree program (the CLI's native parser, cli/engines/native-parser.ts), with
 * typescript-eslint's scope manager or eslint-scope's, as ESLint's parser interface declares it.
 */
export function asESLintParseResultOf(result: {
  ast: TSESTree.Program;
  scopeManager?: TSESLint.Scope.ScopeManager | Scope.ScopeManager;
  visitorKeys?: VisitorKeys;
}): Linter.ESLintParseResult {
  return result as unknown as Linter.ESLintParseResult;
}

/** A rule context's language options (typescript-eslint's type) as ESLint's `Linter` config takes them. */
export function asESLintLanguageOptions(options: TSESLint.FlatConfig.LanguageOptions): Linter.LanguageOptions {
  return options as unknown as Linter.LanguageOptions;
}

/*
 * Modules loaded when first needed (`createRequire` returns them untyped), typed here: typescript-eslint's parser and
 * the TypeScript compiler it reads with, oxc-parser, espree as the installed ESLint resolves it, ESLint's stylish formatter,
 * which the package exports only through its ESLint class, and ESLint's FlatConfigArray, which it does not export.
 */

export type Espree = { parse(text: string, options: Linter.ParserOptions): unknown };
export type StylishFormatter = (results: ESLint.LintResult[], data: { color: boolean; cwd: string }) => string;
/** What `Linter#verify` takes as a config array: an array with `getConfig` (ESLint checks for the method, not the class). */
export type ConfigArray = Linter.Config[] & { getConfig(filePath: string): object | undefined };
export type FlatConfigArray = new (configs: Linter.Config[], options: { basePath: string }) => ConfigArray & { normalizeSync(): void };

const requireHere = createRequire(import.meta.url);

export function requireTypeScriptParser(): typeof import('@typescript-eslint/parser') {
  return requireHere('@typescript-eslint/parser') as typeof import('@typescript-eslint/parser');
}

export function requireTypeScript(): typeof import('typescript') {
  return createRequire(requireHere.resolve('@typescript-eslint/parser'))('typescript') as typeof import('typescript');
}

/** oxc-parser, an ES module: `require` loads it synchronously on Node >= 20.19 (package.json's engines). */
export function requireOxcParser(): typeof import('oxc-parser') {
  return requireHere('oxc-parser') as typeof import('oxc-parser');
}

export function requireEspree(): Espree {
  return createRequire(requireHere.resolve('eslint'))('espree') as Espree;
}

export function requireStylishFormatter(): StylishFormatter {
  return createRequire(requireHere.resolve('eslint'))('./cli-engine/formatters/stylish.js') as StylishFormatter;
}

/** ESLint's own config array class (lib/config/flat-config-array.js), or undefined where the installed ESLint keeps it elsewhere. */
export function requireFlatConfigArray(): FlatConfigArray | undefined {
  try {
    const loaded = createRequire(requireHere.resolve('eslint'))('./config/flat-config-array.js') as { FlatConfigArray?: FlatConfigArray };
    return typeof loaded.FlatConfigArray === 'function' ? loaded.FlatConfigArray : undefined;
  } catch {
    return undefined;
  }
}
