import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How a file is written, so that inserted code looks like its neighbours: read from the repository's formatter
 * settings (prettier, biome, oxfmt, .editorconfig) where they say it, else from the file itself.
 */
export interface Style {
  eol: string;
  /** One indentation level: a tab or spaces. */
  unit: string;
  /** `;` or `` (a file without semicolons). */
  semi: string;
  quote: "'" | '"';
  /** Longest line the emitted code may make (the formatter's print width). */
  width: number;
  /** A trailing comma after the last argument of a call broken over lines. */
  trailingComma: boolean;
  /** `(rest) =>` or `rest =>` for a one-parameter arrow function. */
  arrowParens: boolean;
  typescript: boolean;
}

/** What the repository's settings say; undefined where they say nothing. */
export interface StyleSettings {
  width?: number;
  unit?: string;
  semi?: boolean;
  quote?: "'" | '"';
  trailingComma?: boolean;
  arrowParens?: boolean;
  /**
   * The repository configures a formatter whose configuration cannot be loaded here (`fix` reports it): what the
   * configuration states literally still holds, but where it states no print width the formatter's own default is not
   * evidence of anything, so the width is the file's own longest line.
   */
  unloadable?: boolean;
}

const PRETTIER_WIDTH = 80;
const STYLE_SAMPLE = 256 * 1024;

export function detectStyle(fileText: string, typescript: boolean, settings: StyleSettings = {}): Style {
  // The first 256 KiB say how a file is written as well as all of it (a bundle runs to megabytes).
  const text = fileText.length > STYLE_SAMPLE ? fileText.slice(0, STYLE_SAMPLE) : fileText;
  return {
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    unit: settings.unit ?? detectIndentUnit(text),
    semi: (settings.semi ?? usesSemicolons(text)) ? ';' : '',
    quote: settings.quote ?? detectQuote(text),
    width: settings.width ?? (settings.unloadable ? Math.min(longestLine(text) || PRETTIER_WIDTH, 120) : detectWidth(text)),
    trailingComma: settings.trailingComma ?? /,[ \t]*\r?\n[ \t]*\)/.test(text),
    arrowParens: settings.arrowParens ?? !BARE_ARROW_PARAMETER.test(text),
    typescript,
  };
}

/**
 * A one-parameter arrow function written without parentheses (`x => …`, not `a.b => …` or `f(x) =>`): found at an `=>`
 * and read back from it (the lookbehind), the same texts as `(^|[^\w$.)])[A-Za-z_$][\w$]*\s*=>` matches, which tried
 * every identifier of the text as a parameter (eight times the cost over the SDK corpus).
 */
const BARE_ARROW_PARAMETER = /=>(?<=(?:^|[^\w$.)])[A-Za-z_$][\w$]*\s*=>)/;

/** Statements end in `;` at line ends; in code on one line (minified), between statements (`…;const`). */
function usesSemicolons(text: string): boolean {
  if (/;[ \t]*(\r?\n|$)/.test(text) || !/\S/.test(text)) return true;
  return !/\n[ \t]*\S/.test(text) && /;[ \t]*(?:const|let|var|export|import|return|if|for|while|await|yield)\b/.test(text);
}

/**
 * The indentation of the lines whose leading run of spaces and tabs ends at code: the shortest run of two to eight that
 * starts with a space, as spaces (eight for longer ones); a tab where only runs that start with a tab are found; else two
 * spaces. Each length is one search that stops at its first line (a file indented by two spaces is answered by its first
 * indented lines), not a walk over every line.
 */
function detectIndentUnit(text: string): string {
  for (const [width, pattern] of SPACE_INDENTS) if (pattern.test(text)) return ' '.repeat(width);
  return TAB_INDENT.test(text) ? '\t' : '  ';
}

/** `^ [ \t]{n-1}\S`: a line whose leading run is exactly n spaces and tabs, the first a space; eight or more for the last. */
const SPACE_INDENTS: ReadonlyArray<readonly [number, RegExp]> = [2, 3, 4, 5, 6, 7, 8].map((width) => [width, new RegExp(`^ [ \\t]{${width - 1}${width === 8 ? ',' : ''}}\\S`, 'm')]);
const TAB_INDENT = /^\t[ \t]*\S/m;

/** The quote of most string literals that start a module specifier or stand alone; single when there are none. */
function detectQuote(text: string): "'" | '"' {
  const singles = countMatches(text, /(^|[\s(,[=:])'[^'\n]*'/g);
  const doubles = countMatches(text, /(^|[\s(,[=:])"[^"\n]*"/g);
  return doubles > singles ? '"' : "'";
}

function countMatches(text: string, pattern: RegExp): number {
  let count = 0;
  pattern.lastIndex = 0;
  while (pattern.test(text)) count++;
  return count;
}

/**
 * Without settings: prettier's 80, unless the file already runs longer (then its own longest line, up to 120). Only the
 * lines over 80 characters are looked at (`\n` then 81 or more characters: few in a formatted file).
 */
function detectWidth(text: string): number {
  let longest = PRETTIER_WIDTH;
  const longLines = /(?:^|\n)([^\n]{81,})/g;
  for (let match = longLines.exec(text); match; match = longLines.exec(text)) {
    const line = match[1];
    // A line ends before the `\r` of a `\r\n` (as `split(/\r?\n/)` cuts it).
    const length = line.endsWith('\r') && text[longLines.lastIndex] === '\n' ? line.length - 1 : line.length;
    if (length > longest && !COMMENT_LINE.test(line)) longest = length;
    if (longest >= 120) return 120;
  }
  return longest;
}

const COMMENT_LINE = /^\s*(\/\/|\*|\/\*)/;

/** The longest line of code (comments left out), in characters; 0 for a file without code. */
function longestLine(text: string): number {
  let longest = 0;
  for (const line of text.split(/\r?\n/)) if (line.length > longest && !COMMENT_LINE.test(line)) longest = line.length;
  return longest;
}

const CONFIG_FILES = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  '.oxfmtrc.json',
  '.oxfmtrc.jsonc',
  'oxfmt.config.ts',
  'oxfmt.config.js',
  'oxfmt.config.mjs',
  'biome.json',
  'biome.jsonc',
];

const cache = new Map<string, StyleSettings>();

/**
 * The formatter settings that apply to `filePath`: the nearest directory (up to the git root) with a prettier, oxfmt
 * or biome config or a package.json `prettier` key, read for the options that shape emitted code, completed by
 * .editorconfig. Config files written as code are read for their literal option values, never run.
 */
export function styleSettingsFor(filePath: string): StyleSettings {
  const dir = path.dirname(path.resolve(filePath));
  let settings = cache.get(dir);
  if (!settings) {
    settings = readSettings(dir);
    cache.set(dir, settings);
  }
  return settings;
}

function readSettings(start: string): StyleSettings {
  let formatter: StyleSettings | undefined;
  let editorconfig: StyleSettings | undefined;
  for (let dir = start; ; dir = path.dirname(dir)) {
    formatter ??= formatterSettingsIn(dir);
    const editorconfigPath = path.join(dir, '.editorconfig');
    if (!editorconfig && existsSync(editorconfigPath)) editorconfig = editorconfigSettings(readFileSync(editorconfigPath, 'utf8'));
    const top = existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir;
    if ((formatter && editorconfig) || top) break;
  }
  return { ...editorconfig, ...formatter };
}

function formatterSettingsIn(dir: string): StyleSettings | undefined {
  for (const name of CONFIG_FILES) {
    const file = path.join(dir, name);
    if (existsSync(file)) return optionValues(readFileSync(file, 'utf8'));
  }
  const prettier = packagePrettierKey(dir);
  return prettier && typeof prettier === 'object' ? optionValues(JSON.stringify(prettier)) : undefined;
}

/** The `prettier` key of the `package.json` in `dir` (Prettier's configuration there, or the name of a shared one). */
export function packagePrettierKey(dir: string): unknown {
  const packageJson = path.join(dir, 'package.json');
  if (!existsSync(packageJson)) return undefined;
  try {
    const manifest: unknown = JSON.parse(readFileSync(packageJson, 'utf8'));
    return manifest && typeof manifest === 'object' && 'prettier' in manifest ? manifest.prettier : undefined;
  } catch {
    return undefined;
  }
}

/** The options as written (`printWidth: 110`, `"lineWidth": 120`, `semi = false`, biome's `"quoteStyle": "double"`). */
export function optionValues(text: string): StyleSettings {
  const value = (key: string): string | undefined => new RegExp(`["']?\\b${key}["']?\\s*[:=]\\s*["']?([\\w-]+)`).exec(text)?.[1];
  const settings: StyleSettings = {};
  const width = value('printWidth') ?? value('lineWidth');
  if (width && /^\d+$/.test(width)) settings.width = Number(width);
  const tabs = value('useTabs') ?? value('indentStyle');
  const size = value('tabWidth') ?? value('indentWidth');
  if (tabs === 'true' || tabs === 'tab') settings.unit = '\t';
  else if (size && /^\d+$/.test(size)) settings.unit = ' '.repeat(Number(size));
  const semi = value('semi') ?? value('semicolons');
  if (semi) settings.semi = semi === 'true' || semi === 'always';
  const single = value('singleQuote');
  const quoteStyle = value('quoteStyle');
  if (single) settings.quote = single === 'true' ? "'" : '"';
  else if (quoteStyle) settings.quote = quoteStyle === 'single' ? "'" : '"';
  const trailing = value('trailingComma') ?? value('trailingCommas');
  if (trailing) settings.trailingComma = trailing === 'all';
  const arrowParens = value('arrowParens') ?? value('arrowParentheses');
  if (arrowParens) settings.arrowParens = arrowParens !== 'avoid' && arrowParens !== 'asNeeded';
  return settings;
}

/** The `[*]` and JavaScript/TypeScript sections of an .editorconfig: indentation and max_line_length. */
function editorconfigSettings(text: string): StyleSettings {
  const settings: StyleSettings = {};
  let applies = false;
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[(.*)\]\s*$/.exec(line);
    if (section) {
      applies = section[1] === '*' || /\b[jt]sx?\b|\{[^}]*\b[jt]s\b/.test(section[1]);
      continue;
    }
    const pair = /^\s*([\w_]+)\s*=\s*(\S+)/.exec(line);
    if (!applies || !pair) continue;
    const [, key, raw] = pair;
    if (key === 'max_line_length' && /^\d+$/.test(raw)) settings.width = Number(raw);
    if (key === 'indent_style' && raw === 'tab') settings.unit = '\t';
    if (key === 'indent_size' && /^\d+$/.test(raw) && settings.unit !== '\t') settings.unit = ' '.repeat(Number(raw));
  }
  return settings;
}
