/**
 * An ESLint parser for `drainguard lint` that parses in native code: oxc-parser (Rust, prebuilt in its npm
 * package) gives an ESTree AST for JavaScript and a TS-ESTree AST for TypeScript, so a lint of a few
 * TypeScript files no longer loads the TypeScript compiler (most of a second) through typescript-eslint's
 * parser. TypeScript scopes come from typescript-eslint's scope manager, as typescript-eslint's parser
 * calls it but without TypeScript's lib declarations (`lib: []`, as oxlint runs it): ESLint declares the
 * language's globals in the global scope itself, and the rule resolves no type-only global. JavaScript
 * scopes come from eslint-scope with ESLint's options, as ESLint analyzes an espree tree, but without its
 * per-pattern copies of the visitor keys (cli/engines/javascript-scopes.ts). The rule then sees the same tree
 * and the same variables as through the usual parsers.
 *
 * A text oxc does not accept, syntax or early (semantic) errors alike, makes parseForESLint throw
 * NATIVE_PARSE_ERROR: the caller lints that file again with the usual parser, whose error message (or
 * whose acceptance of the file) is the one `drainguard lint` has always given.
 */
import type { Linter } from 'eslint';
import { parseSync } from 'oxc-parser';
import { asESLintParseResultOf } from '../../rules/eslint-types.js';
import { addLocations } from './ast-locations.js';
import { analyzeJavaScriptScopes, type JavaScriptScopeOptions } from './javascript-scopes.js';
import { NATIVE_PARSE_ERROR } from './native-error.js';

interface NativeParserOptions extends JavaScriptScopeOptions {
  filePath?: string;
}

const TYPESCRIPT = /\.[cm]?tsx?$/i;

let typeScriptScopes: typeof import('./typescript-scopes.js') | undefined;

/** Loads what the native parser needs for TypeScript files (call it before the first one is parsed). */
export async function loadTypeScriptScopes(): Promise<void> {
  typeScriptScopes ??= await import('./typescript-scopes.js');
}

export function isTypeScriptFile(filePath: string): boolean {
  return TYPESCRIPT.test(filePath);
}

export const nativeParser: Linter.Parser = {
  meta: { name: 'drainguard/native (oxc-parser)' },
  parseForESLint(text: string, options: NativeParserOptions = {}) {
    const filePath = options.filePath ?? '';
    const typeScript = isTypeScriptFile(filePath);
    const jsx = options.ecmaFeatures?.jsx === true;
    const lang = typeScript ? (jsx ? 'tsx' : 'ts') : jsx ? 'jsx' : 'js';
    const sourceType = typeScript ? 'module' : (options.sourceType ?? 'script');
    const result = parseSync(filePath, text, { lang, sourceType, range: true, preserveParens: false, showSemanticErrors: true });
    if (result.errors.length > 0) throw new Error(NATIVE_PARSE_ERROR);
    const ast = addLocations(result.program, result.comments, text);
    if (!typeScript) return asESLintParseResultOf({ ast, scopeManager: analyzeJavaScriptScopes(ast, { ...options, sourceType }) });
    if (!typeScriptScopes) throw new Error('drainguard: loadTypeScriptScopes() was not called before a TypeScript file was parsed');
    // What @typescript-eslint/parser gives the scope manager for a file parsed without a TypeScript program, less the libs.
    const scopeManager = typeScriptScopes.analyze(ast, { sourceType: 'module', lib: [] });
    return asESLintParseResultOf({ ast, scopeManager, visitorKeys: typeScriptScopes.visitorKeys });
  },
};
