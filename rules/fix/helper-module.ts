import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DrainBounds } from '../contract/drain-options.js';
import { bytesText, piecesIn, renderPieces, withDependencies, type PieceName } from './helpers.js';
import type { Style } from './style.js';

/** The helper module's file name (without extension) where `--helper-path` does not set another. */
export const HELPER_MODULE_NAME = 'drain-body';

export interface HelperModule {
  path: string;
  text: string;
  /** The pieces it declares. */
  pieces: Set<PieceName>;
  bounds: DrainBounds;
}

/**
 * The helper module at `file`: null where there is none, `'foreign'` where the file is not one drainguard wrote (it
 * does not declare the drain's limits, `DRAIN_LIMITS`).
 */
export function readHelperModule(file: string): HelperModule | null | 'foreign' {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const declared = declaredNames(text);
  const timeout = limitValue(text, 'timeoutMs');
  const maxBytes = limitValue(text, 'maxBytes');
  if (!declared.has('DRAIN_LIMITS') || timeout === null || maxBytes === null) return 'foreign';
  return { path: file, text, pieces: new Set(piecesIn(declared)), bounds: { drainTimeoutMs: timeout, drainMaxBytes: maxBytes } };
}

/** The names a module's text declares at its top level (functions, constants, variables). */
function declaredNames(text: string): Set<string> {
  return new Set([...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function|const|let)\s+([\w$]+)/gm)].map((match) => match[1]));
}

/** The pieces a helper module's text declares. */
export function modulePieces(text: string): PieceName[] {
  return piecesIn(declaredNames(text));
}

/** The start of the value of the `DRAIN_LIMITS` declaration (after its type, where it has one), up to its `{`. */
const LIMITS_VALUE = String.raw`\bDRAIN_LIMITS\s*(?::[^=]*)?=\s*\{`;

/** `maxBytes: 128 * 1024` in the `DRAIN_LIMITS` declaration -> 131072. */
function limitValue(text: string, name: string): number | null {
  const match = new RegExp(`${LIMITS_VALUE}[^}]*\\b${name}\\s*:\\s*([\\d_ *]+?)\\s*[,}]`).exec(text);
  if (!match) return null;
  return match[1].split('*').reduce((product, factor) => product * Number(factor.replace(/[_\s]/g, '')), 1);
}

/**
 * The helper module an earlier `drainguard fix` wrote nearest to `filePath`: in its directory or one above it, up to
 * its package's root (a package.json) or the work tree's, in the file's language (`.ts` for TypeScript, `.js` or
 * `.mjs` for JavaScript). What the jscodeshift transform and the rule's suggestion import, where it has the pieces
 * they need. Looked up afresh on every call (only files with a report ask): a long-lived ESLint process (an editor's
 * server, eslint_d) sees the module `drainguard fix` writes while it runs, and what later runs add to it.
 */
export function findHelperModule(filePath: string): HelperModule | null {
  const start = path.dirname(path.resolve(filePath));
  const extensions = /\.[cm]?tsx?$/i.test(filePath) ? ['.ts'] : ['.js', '.mjs'];
  let result: HelperModule | null = null;
  for (let dir = start; ; dir = path.dirname(dir)) {
    for (const extension of extensions) {
      const module = readHelperModule(path.join(dir, `${HELPER_MODULE_NAME}${extension}`));
      if (module && module !== 'foreign') result ??= module;
    }
    const root = existsSync(path.join(dir, 'package.json')) || existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir;
    if (result || root) break;
  }
  return result;
}

/** A new helper module: the pieces and what they use, exported, in the repository's style. */
export function helperModuleText(pieces: Iterable<PieceName>, style: Style, bounds: DrainBounds): string {
  return `${renderPieces(withDependencies(pieces), { style, bounds, exported: true })}${style.eol}`;
}

/**
 * An existing helper module with the pieces it lacks appended (its own text, edits included, stays), and its bounds
 * set to `bounds` where they are given and differ; a module that changes gets its limits exported as a new one has
 * them (an earlier version kept them to itself), for the test written with it. Null when nothing changes.
 */
export function extendHelperModule(module: HelperModule, wanted: Iterable<PieceName>, style: Style, bounds?: DrainBounds): string | null {
  let text = module.text;
  if (bounds) {
    text = text
      .replace(new RegExp(String.raw`(${LIMITS_VALUE}[^}]*\btimeoutMs\s*:\s*)[\d_ *]+?(\s*[,}])`), `$1${bounds.drainTimeoutMs}$2`)
      .replace(new RegExp(String.raw`(${LIMITS_VALUE}[^}]*\bmaxBytes\s*:\s*)[\d_ *]+?(\s*[,}])`), `$1${bytesText(bounds.drainMaxBytes)}$2`);
  }
  const missing = withDependencies(wanted).filter((piece) => !module.pieces.has(piece));
  if (missing.length > 0) {
    const trailing = /[\r\n]*$/.exec(text)![0];
    const { eol } = style;
    text = `${text.slice(0, text.length - trailing.length)}${eol}${eol}${renderPieces(missing, { style, bounds: module.bounds, exported: true })}${eol}`;
  }
  return text === module.text ? null : exportLimits(text, style);
}

/** Whether a module exports its limits (the test written with it shortens them). */
export function exportsLimits(text: string): boolean {
  return /^export\s+const\s+DRAIN_LIMITS\b/m.test(text);
}

/** `const DRAIN_LIMITS = {…};`, as an earlier version wrote it, exported and typed as a new module declares it. */
function exportLimits(text: string, style: Style): string {
  const declaration = /^const DRAIN_LIMITS\s*=\s*\{[^}]*\};?[ \t]*(?=\r?$)/m.exec(text);
  const timeout = limitValue(text, 'timeoutMs');
  const maxBytes = limitValue(text, 'maxBytes');
  if (exportsLimits(text) || !declaration || timeout === null || maxBytes === null) return text;
  const [, ...exported] = renderPieces(['bounds'], { style, bounds: { drainTimeoutMs: timeout, drainMaxBytes: maxBytes }, exported: true }).split(style.eol);
  return `${text.slice(0, declaration.index)}${exported.join(style.eol)}${text.slice(declaration.index + declaration[0].length)}`;
}
