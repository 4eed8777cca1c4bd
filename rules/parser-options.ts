// How drainguard's own tools read a file, chosen by its extension: `drainguard lint` (cli/) and the
// codemod (codemods/) parse every file the same way, so fix can rewrite every site lint reports. The
// plugin itself does not use this module: in a user's ESLint or oxlint, their config chooses the parser.
import type { Linter } from 'eslint';
import type { ParserOptions } from '@typescript-eslint/parser';
import { asESLintParseResult, requireTypeScriptParser } from './eslint-types.js';

type TypeScriptParserModule = typeof import('@typescript-eslint/parser');
let loadedTypeScriptParser: TypeScriptParserModule | undefined;

/**
 * @typescript-eslint/parser, loaded on the first TypeScript file: loading it loads the
 * TypeScript compiler (most of a second), which a run over JavaScript files never needs.
 * `drainguard lint` and `drainguard fix` both parse TypeScript with this object.
 */
export const typeScriptParser: Linter.Parser = {
  meta: { name: '@typescript-eslint/parser (loaded on first use)' },
  parseForESLint(text: string, options?: ParserOptions) {
    loadedTypeScriptParser ??= requireTypeScriptParser();
    return asESLintParseResult(loadedTypeScriptParser.parseForESLint(text, options));
  },
};

const TS_EXTENSIONS = /\.(ts|tsx|mts|cts)$/i;

export function isTypeScriptPath(filePath: string): boolean {
  return TS_EXTENSIONS.test(filePath);
}

/** `.js`, `.jsx`, `.mjs`: ES modules with JSX (or, for the retry of {@link mayBeScript}, sloppy-mode scripts). */
export function javaScriptOptions({ scriptMode = false } = {}): Linter.LanguageOptions {
  return { ecmaVersion: 'latest', sourceType: scriptMode ? 'commonjs' : 'module', parserOptions: { ecmaFeatures: { jsx: true } } };
}

/** `.cjs`: CommonJS, no JSX. */
export function commonJsOptions(): Linter.LanguageOptions {
  return { ecmaVersion: 'latest', sourceType: 'commonjs' };
}

/** `.ts`, `.mts`, `.cts` (no JSX) and `.tsx` (JSX); `parserOptions` adds to them (type information for `--types`). */
export function typeScriptOptions(jsx: boolean, parserOptions: Linter.ParserOptions = {}): Linter.LanguageOptions {
  return { parser: typeScriptParser, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx }, ...parserOptions } };
}

/**
 * The parser and options drainguard uses for a file, chosen by its extension (espree for JS,
 * typescript-eslint for TS). `drainguard lint` (cli/engines/eslint-setup.ts) makes the same choices by glob
 * from the functions above, so the codemod parses every file lint reports on.
 */
export function languageOptionsFor(filePath: string, { scriptMode = false } = {}): Linter.LanguageOptions {
  if (isTypeScriptPath(filePath)) return typeScriptOptions(/\.tsx$/i.test(filePath));
  if (/\.cjs$/i.test(filePath)) return commonJsOptions();
  return javaScriptOptions({ scriptMode });
}

/** A `.js`/`.jsx` file that does not parse as an ES module is parsed again as a sloppy-mode CommonJS script (old code). */
export function mayBeScript(filePath: string): boolean {
  return /\.jsx?$/i.test(filePath);
}
