import { createRequire } from 'node:module';
import type { Linter } from 'eslint';

type TypeScriptParserModule = typeof import('@typescript-eslint/parser');
let loadedTypeScriptParser: TypeScriptParserModule | undefined;

/**
 * @typescript-eslint/parser, loaded on the first TypeScript file: loading it loads the
 * TypeScript compiler (most of a second), which a run over JavaScript files never needs.
 * `drainguard lint` and `drainguard fix` both parse TypeScript with this object.
 */
export const typeScriptParser: Linter.Parser = {
  meta: { name: '@typescript-eslint/parser (loaded on first use)' },
  parseForESLint(text: string, options?: unknown) {
    loadedTypeScriptParser ??= createRequire(import.meta.url)('@typescript-eslint/parser') as TypeScriptParserModule;
    return loadedTypeScriptParser.parseForESLint(text, options as never) as unknown as Linter.ESLintParseResult;
  },
};

const TS_EXTENSIONS = /\.(ts|tsx|mts|cts)$/i;

export function isTypeScriptPath(filePath: string): boolean {
  return TS_EXTENSIONS.test(filePath);
}

/** The parser and options drainguard uses for a file, chosen by its extension (espree for JS, typescript-eslint for TS); `scriptMode` for the retry of {@link mayBeScript}. */
export function languageOptionsFor(filePath: string, { scriptMode = false } = {}): Linter.LanguageOptions {
  // Same choices as `drainguard lint` (cli/eslint-setup.ts), so fix parses every file lint reports on:
  // JSX on in .js/.jsx/.mjs and .tsx, off in .cjs and .ts/.mts/.cts.
  if (isTypeScriptPath(filePath)) {
    return { parser: typeScriptParser, parserOptions: { ecmaFeatures: { jsx: /\.tsx$/i.test(filePath) } }, sourceType: 'module' };
  }
  if (/\.cjs$/i.test(filePath)) return { ecmaVersion: 'latest', sourceType: 'commonjs' };
  return { ecmaVersion: 'latest', sourceType: scriptMode ? 'commonjs' : 'module', parserOptions: { ecmaFeatures: { jsx: true } } };
}

/** A `.js`/`.jsx` file that does not parse as an ES module is parsed again as a sloppy-mode CommonJS script (old code). */
export function mayBeScript(filePath: string): boolean {
  return /\.jsx?$/i.test(filePath);
}
