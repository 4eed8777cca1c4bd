import path from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DrainBounds } from '../contract/drain-options.js';
import { HELPER_IDENTIFIERS, isPieceName, piecesIn, renderPieces, withDependencies, type PieceName } from './helpers.js';
import type { Edit } from '../contract/apply-edits.js';
import type { Style } from './style.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/**
 * How a rewritten file gets the helpers its sites call: an import from the repository's helper module, or (where no
 * module is given or the file cannot import it) its own copy of the pieces it needs, appended at its end.
 */
export interface HelperBinding {
  /** The name the file calls the exported piece by. */
  use(piece: PieceName): string;
  /** The edits that make the used names available: an import (new, or added to), or the pieces the file lacks. */
  edits(): Edit[];
  /** The exported pieces the sites call (what the helper module must hold). */
  readonly used: ReadonlySet<PieceName>;
}

/**
 * Identifier-like words of a file, for the names a binding may write: the helpers' names with any numeric suffix
 * (`drainReader`, `drainReader2`) are all found by one pass of one regular expression over the text when first asked
 * for (a bundle runs to megabytes: an `indexOf` loop per name and suffix took 15-60 ms on a 1.2 MB one); any other word
 * is looked up in the text when first asked for.
 */
class FileWords {
  private readonly known = new Map<string, boolean>();
  private helperWords: ReadonlySet<string> | undefined;

  constructor(private readonly text: string) {}

  has(word: string): boolean {
    let found = this.known.get(word);
    if (found === undefined) {
      found = HELPER_WORD.test(word) ? this.wordsOfHelpers().has(word) : containsWord(this.text, word);
      this.known.set(word, found);
    }
    return found;
  }

  add(word: string): void {
    this.known.set(word, true);
  }

  private wordsOfHelpers(): ReadonlySet<string> {
    this.helperWords ??= helperWordsIn(this.text);
    return this.helperWords;
  }
}

/** The helpers' names, longest first (an alternation takes its first alternative that matches), each with any numeric suffix. */
const HELPER_NAMES = `(?:${[...HELPER_IDENTIFIERS].sort((a, b) => b.length - a.length).map((name) => name.replace(/[$]/g, '\\$&')).join('|')})\\d*`;
const HELPER_WORD = new RegExp(`^${HELPER_NAMES}$`);
const HELPER_OCCURRENCE = new RegExp(HELPER_NAMES, 'g');

/**
 * The helper names (with their suffixes) that occur in `text` not inside a longer identifier, as `containsWord` finds
 * them. A match the regular expression skips (inside a longer identifier) holds only word characters, so no whole-word
 * occurrence starts inside it.
 */
export function helperWordsIn(text: string): Set<string> {
  const found = new Set<string>();
  HELPER_OCCURRENCE.lastIndex = 0;
  for (let match = HELPER_OCCURRENCE.exec(text); match; match = HELPER_OCCURRENCE.exec(text)) {
    const at = match.index;
    const end = at + match[0].length;
    if ((at === 0 || !WORD_CHARACTER.test(text[at - 1])) && (end === text.length || !WORD_CHARACTER.test(text[end]))) found.add(match[0]);
  }
  return found;
}

const WORD_CHARACTER = /[\w$]/;

/** Whether `word` occurs in `text` not inside a longer identifier (`indexOf` finds it where a lookbehind regex would scan every offset). */
export function containsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? '' : text[at - 1];
    const after = text[at + word.length] ?? '';
    if (!WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after)) return true;
  }
  return false;
}

const names = new WeakMap<TSESTree.Program, { declared: ReadonlySet<string>; words: FileWords }>();

/** Top-level names a file declares, and the identifier-like words in it (names a new declaration must avoid). */
function namesOf(text: string, program: TSESTree.Program): { declared: ReadonlySet<string>; words: FileWords } {
  const known = names.get(program);
  if (known) return known;
  const declared = new Set<string>();
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.declaration ? statement.declaration : statement;
    if (declaration.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id) declared.add(declaration.id.name);
    if (declaration.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of declaration.declarations) if (declarator.id.type === AST_NODE_TYPES.Identifier) declared.add(declarator.id.name);
    }
  }
  const found = { declared, words: new FileWords(text) };
  names.set(program, found);
  return found;
}

/** The insertion of a file's own copy of the helpers, and the pieces' code it inserts. */
export interface OwnCopy {
  edit: Edit;
  code: string;
}

/** The file's own copy: one group of pieces named with one suffix (`drainReader2`) where the plain names are taken. */
export class InlineBinding implements HelperBinding {
  readonly used = new Set<PieceName>();
  /** What the last call of `edits()` inserted, if anything. */
  copy: OwnCopy | undefined;
  private readonly suffix: string;
  private readonly declared: ReadonlySet<string>;

  constructor(
    private readonly text: string,
    private readonly program: TSESTree.Program,
    private readonly style: Style,
    private readonly bounds: DrainBounds,
  ) {
    const { declared, words } = namesOf(text, program);
    this.declared = declared;
    let suffix = 1;
    // An earlier run's copy (its bounds declared) is reused; else the first suffix whose names are all free.
    for (; ; suffix++) {
      const candidate = suffix === 1 ? '' : String(suffix);
      if (declared.has(`DRAIN_LIMITS${candidate}`)) break;
      if (HELPER_IDENTIFIERS.every((name) => !words.has(`${name}${candidate}`))) break;
    }
    this.suffix = suffix === 1 ? '' : String(suffix);
  }

  use(piece: PieceName): string {
    this.used.add(piece);
    return `${piece}${this.suffix}`;
  }

  edits(): Edit[] {
    this.copy = undefined;
    const present = new Set(piecesIn(this.declared, this.suffix));
    const missing = withDependencies(this.used).filter((piece) => !present.has(piece));
    if (missing.length === 0) return [];
    const rename = new Map(this.suffix === '' ? [] : HELPER_IDENTIFIERS.map((name) => [name, `${name}${this.suffix}`]));
    const pieces = renderPieces(missing, { style: this.style, bounds: this.bounds, exported: false, rename });
    // Before the file's own code, so that its bounds are set before any of that code runs (a top-level await).
    this.copy = { edit: topInsertion(this.text, this.program, pieces, this.style.eol), code: pieces };
    return [this.copy.edit];
  }
}

/** An import of the helper module's pieces, added to the file's import from it where it has one. */
export class ModuleBinding implements HelperBinding {
  readonly used = new Set<PieceName>();
  private readonly locals = new Map<PieceName, string>();
  private readonly existing: TSESTree.ImportDeclaration | undefined;
  private readonly specifier: string;
  private readonly words: FileWords;

  constructor(
    private readonly program: TSESTree.Program,
    private readonly text: string,
    private readonly style: Style,
    filePath: string,
    modulePath: string,
  ) {
    this.specifier = moduleSpecifier(filePath, modulePath, program);
    // Its own copy: the names this binding adds are not words of the file for the next binding.
    this.words = new FileWords(text);
    const target = withoutExtension(modulePath);
    this.existing = program.body.find(
      (statement): statement is TSESTree.ImportDeclaration =>
        statement.type === AST_NODE_TYPES.ImportDeclaration && statement.source.value.startsWith('.') && withoutExtension(path.resolve(path.dirname(filePath), statement.source.value)) === target,
    );
    for (const specifier of this.existing?.specifiers ?? []) {
      if (specifier.type === AST_NODE_TYPES.ImportSpecifier && specifier.imported.type === AST_NODE_TYPES.Identifier && isPieceName(specifier.imported.name)) {
        this.locals.set(specifier.imported.name, specifier.local.name);
      }
    }
  }

  use(piece: PieceName): string {
    this.used.add(piece);
    let local = this.locals.get(piece);
    if (!local) {
      local = piece;
      for (let suffix = 2; this.words.has(local); suffix++) local = `${piece}${suffix}`;
      this.words.add(local);
      this.locals.set(piece, local);
    }
    return local;
  }

  edits(): Edit[] {
    const imported = new Set(this.existing?.specifiers.map((specifier) => specifier.local.name));
    const added = [...this.used].sort().map((piece) => ({ piece, local: this.locals.get(piece)! })).filter(({ local }) => !imported.has(local));
    if (added.length === 0) return [];
    const names = added.map(({ piece, local }) => (piece === local ? piece : `${piece} as ${local}`));
    const { eol, quote, semi } = this.style;
    const last = this.existing?.specifiers.at(-1);
    if (this.existing && last?.type === AST_NODE_TYPES.ImportSpecifier) return [{ start: last.range[1], end: last.range[1], text: `, ${names.join(', ')}` }];
    const statement = `import { ${names.join(', ')} } from ${quote}${this.specifier}${quote}${semi}`;
    return [topInsertion(this.text, this.program, statement, eol, true)];
  }
}

/**
 * `code` put after the file's leading imports and directives (right under an import where it is one, `asImport`),
 * on lines of its own; where it has none, before its first statement and the comment attached to it (a file's header
 * comment, set off by a blank line, stays first).
 */
function topInsertion(text: string, program: TSESTree.Program, code: string, eol: string, asImport = false): Edit {
  let preamble: TSESTree.ProgramStatement | undefined;
  for (const statement of program.body) {
    const isImport = statement.type === AST_NODE_TYPES.ImportDeclaration;
    if (!isImport && !(statement.type === AST_NODE_TYPES.ExpressionStatement && typeof statement.directive === 'string')) break;
    preamble = statement;
  }
  if (preamble) {
    const underImport = asImport && preamble.type === AST_NODE_TYPES.ImportDeclaration;
    const at = preamble.range[1];
    // Code that goes on after it on the same line (minified code) goes on after the inserted lines.
    const lineEnd = text.indexOf('\n', at);
    const goesOn = /\S/.test(text.slice(at, lineEnd < 0 ? text.length : lineEnd));
    return { start: at, end: at, text: `${underImport ? eol : `${eol}${eol}`}${code}${goesOn ? `${/[;}]$/.test(code) ? '' : ';'}${eol}` : ''}` };
  }
  const first = program.body[0];
  if (!first) return { start: text.length, end: text.length, text: `${code}${eol}` };
  let at = first.range[0];
  for (const comment of [...(program.comments ?? [])].reverse()) {
    if (comment.range[1] > at) continue;
    if (!/^[ \t]*\r?\n?[ \t]*$/.test(text.slice(comment.range[1], at))) break;
    at = comment.range[0];
  }
  return { start: at, end: at, text: `${code}${eol}${eol}` };
}

function withoutExtension(file: string): string {
  return file.replace(/\.[cm]?[jt]sx?$/, '');
}

/**
 * The import specifier of the helper module from `filePath`, written as the file writes its relative imports (with
 * `.js`, `.ts` or no extension); where it has none, with `.js` (what TypeScript and Node's ES modules both resolve).
 */
export function moduleSpecifier(filePath: string, modulePath: string, program: TSESTree.Program): string {
  let relative = path.relative(path.dirname(filePath), modulePath).split(path.sep).join('/');
  if (!relative.startsWith('.')) relative = `./${relative}`;
  const sources = program.body
    .map((statement) => ('source' in statement && statement.source?.type === AST_NODE_TYPES.Literal ? String(statement.source.value) : null))
    .filter((source): source is string => source !== null && source.startsWith('.'));
  const base = withoutExtension(relative);
  const extension = path.extname(modulePath);
  if (sources.length > 0 && sources.every((source) => !/\.[cm]?[jt]sx?$/.test(source))) return base;
  if (sources.some((source) => /\.[cm]?tsx?$/.test(source))) return relative;
  return /\.[cm]?tsx?$/.test(extension) ? `${base}${extension.replace('t', 'j')}` : relative;
}

/** Whether the file can import the helper module: both TypeScript, or an ES module importing a JavaScript one. */
export function canImport(filePath: string, program: TSESTree.Program, modulePath: string): boolean {
  const fileIsTs = /\.[cm]?tsx?$/i.test(filePath);
  const moduleIsTs = /\.[cm]?tsx?$/i.test(modulePath);
  if (fileIsTs || moduleIsTs) return fileIsTs === moduleIsTs;
  if (/\.cjs$/i.test(filePath)) return false;
  return program.body.some(
    (statement) =>
      statement.type === AST_NODE_TYPES.ImportDeclaration ||
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration ||
      statement.type === AST_NODE_TYPES.ExportDefaultDeclaration ||
      statement.type === AST_NODE_TYPES.ExportAllDeclaration,
  );
}
