// The parse a suggestion must pass before the rule offers it: the host's parser (or drainguard's choice by extension),
// and nothing else (no scope analysis, no rule): ESLint builds every suggestion while it lints.
import type { Linter } from 'eslint';
import { requireEspree, requireOxcParser, requireTypeScript, type Espree } from './eslint-types.js';
import { languageOptionsFor, mayBeScript, typeScriptParser } from './parser-options.js';

/**
 * How a suggestion is parsed in its host: with the host's parser and options, without type information, where the
 * host is ESLint with an ESLint parser (espree, or one with `parseForESLint`); undefined elsewhere (oxlint's context
 * mimics espree without being it), and drainguard's own choice by extension then reads the rewrite, as `fix` does.
 */
export function verificationLanguageOptions(languageOptions: Linter.LanguageOptions | undefined): Linter.LanguageOptions | undefined {
  const parser: unknown = languageOptions?.parser;
  if (!languageOptions || typeof parser !== 'object' || parser === null) return undefined;
  const eslintParser = 'parseForESLint' in parser || ('name' in parser && parser.name === 'espree');
  if (!eslintParser) return undefined;
  const parserOptions = { ...languageOptions.parserOptions };
  delete parserOptions.project;
  delete parserOptions.projectService;
  const { ecmaVersion, sourceType, globals } = languageOptions;
  return { ecmaVersion, sourceType, ...(globals ? { globals } : {}), parser: languageOptions.parser, parserOptions };
}

type TypeScript = typeof import('typescript');
type OxcParser = typeof import('oxc-parser');
let loadedEspree: Espree | undefined;
let loadedTypeScript: TypeScript | undefined;
let loadedOxc: OxcParser | null | undefined;

/** ESLint's default parser, as the installed ESLint resolves it. */
function espree(): Espree {
  loadedEspree ??= requireEspree();
  return loadedEspree;
}

/** oxc-parser, or null where it does not load (no native binary for this platform). */
function oxc(): OxcParser | null {
  if (loadedOxc === undefined) {
    try {
      loadedOxc = requireOxcParser();
    } catch {
      loadedOxc = null;
    }
  }
  return loadedOxc;
}

/** The TypeScript compiler typescript-eslint's parser reads TypeScript with. */
function typeScript(): TypeScript {
  loadedTypeScript ??= requireTypeScript();
  return loadedTypeScript;
}

/**
 * TypeScript's own syntax errors in a text: what typescript-eslint's parser throws on, without its conversion to ESTree
 * (four times the cost of the parse itself). `parseDiagnostics` is the field typescript-eslint reads them from. JSDoc
 * comments are not parsed, as typescript-eslint does not parse them without type information: their errors are never
 * among the syntax errors, and parsing them cost the check of a suggestion with the helpers' doc comments a third more
 * (and code the host's own parse leaves cold).
 */
function typeScriptSyntaxError(text: string, jsx: boolean): string | null {
  const ts = typeScript();
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  const file = ts.createSourceFile(jsx ? 'file.tsx' : 'file.ts', text, options, false, jsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  // Internal to TypeScript (not in its typings), read by typescript-eslint the same way.
  const diagnostics = Reflect.get(file, 'parseDiagnostics') as readonly import('typescript').Diagnostic[] | undefined;
  const first = diagnostics?.[0];
  return first ? ts.flattenDiagnosticMessageText(first.messageText, '\n') : null;
}

/**
 * A name for the check `parseErrorOf(text, file, languageOptions)` makes where it judges each top-level statement on its
 * own: TypeScript's syntax check, which reports no error that spans statements (a redeclaration is the checker's, not
 * the parser's); undefined where the check may (espree, oxc and other parsers report a name declared twice).
 */
export function statementsApartCheck(languageOptions: Linter.LanguageOptions | undefined): string | undefined {
  if (!languageOptions || !isTypeScriptParser(languageOptions.parser)) return undefined;
  return languageOptions.parserOptions?.ecmaFeatures?.jsx ? 'typescript-jsx' : 'typescript';
}

function isTypeScriptParser(parser: unknown): boolean {
  if (parser === typeScriptParser) return true;
  const name: unknown = typeof parser === 'object' && parser !== null && 'meta' in parser && typeof parser.meta === 'object' && parser.meta !== null && 'name' in parser.meta ? parser.meta.name : undefined;
  return typeof name === 'string' && name.includes('typescript-eslint');
}

/**
 * Why a text does not parse with the parser and options ESLint would read it with (`languageOptions`, else drainguard's
 * choice by extension), or null when it parses. A parse only: no scope analysis, no rule (the rule's check of a
 * suggestion, which must cost little).
 */
export function parseErrorOf(text: string, filePath: string, languageOptions?: Linter.LanguageOptions): string | null {
  if (!languageOptions && oxcAccepts(text, languageOptionsFor(filePath))) return null;
  const error = parseErrorWith(text, filePath, languageOptions ?? languageOptionsFor(filePath));
  if (error === null || languageOptions || !mayBeScript(filePath)) return error;
  return parseErrorWith(text, filePath, languageOptionsFor(filePath, { scriptMode: true })) === null ? null : error;
}

/**
 * Whether oxc-parser accepts the text read with drainguard's options by extension, early (semantic) errors included.
 * oxc is oxlint's own parser, the host that names none; and where it accepts, the text is spared the usual parser,
 * which for TypeScript means loading the compiler (about 0.3 s, in each oxlint process). Where it does not, the usual
 * parser gives its verdict and its message.
 */
function oxcAccepts(text: string, { parser, sourceType, parserOptions }: Linter.LanguageOptions): boolean {
  const oxcParser = oxc();
  if (!oxcParser) return false;
  const jsx = parserOptions?.ecmaFeatures?.jsx === true;
  const lang = parser === typeScriptParser ? (jsx ? 'tsx' : 'ts') : jsx ? 'jsx' : 'js';
  return oxcParser.parseSync('', text, { lang, sourceType: sourceType ?? 'module', showSemanticErrors: true }).errors.length === 0;
}

function parseErrorWith(text: string, filePath: string, languageOptions: Linter.LanguageOptions): string | null {
  const { parser, ecmaVersion = 'latest', sourceType = 'module', parserOptions = {} } = languageOptions;
  const commonjs = sourceType === 'commonjs';
  const options: Linter.ParserOptions = {
    ...parserOptions,
    ecmaVersion,
    sourceType: commonjs ? 'script' : sourceType,
    ecmaFeatures: { ...parserOptions.ecmaFeatures, ...(commonjs ? { globalReturn: true } : {}) },
    range: true,
    loc: true,
    // As ESLint passes it: a parser may choose the language by it (drainguard lint's native parser does).
    filePath,
  };
  try {
    if (!parser) espree().parse(text, options);
    else if (isTypeScriptParser(parser)) return typeScriptSyntaxError(text, Boolean(parserOptions.ecmaFeatures?.jsx));
    else if ('parse' in parser && typeof parser.parse === 'function') parser.parse(text, options);
    else if ('parseForESLint' in parser && typeof parser.parseForESLint === 'function') parser.parseForESLint(text, options);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
