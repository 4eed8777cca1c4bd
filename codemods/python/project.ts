import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';

/**
 * What a Python file's project declares, as far as the rewrite needs it: the lower bounds of a few
 * requirements (to choose how a drain is bounded), the Python versions it supports, and how its
 * imports are sorted (ruff's or isort's settings). Read from the nearest directory above the file
 * that holds a pyproject.toml, setup.cfg, setup.py or requirements*.txt.
 */
export interface PythonProject {
  /** The directory the settings were read from, or null (none found: defaults). */
  root: string | null;
  /** The lowest version every declaration of a requirement allows (`anyio>=4.5` -> [4, 5]); [] when one is unbounded below; undefined when not declared. */
  lowerBound(requirement: string): number[] | undefined;
  /** The lowest Python version the project supports (`requires-python = ">=3.10"`), or null. */
  requiresPython: number[] | null;
  isort: IsortSettings;
}

export interface IsortSettings {
  lineLength: number;
  /** ruff `length-sort` / isort `length_sort`: sort by length, then alphabetically. */
  lengthSort: boolean;
  /** ruff `force-sort-within-sections`: `import x` and `from x import y` sorted together by module. */
  forceSortWithinSections: boolean;
  knownFirstParty: ReadonlySet<string>;
  extraStandardLibrary: ReadonlySet<string>;
}

const MARKERS = ['pyproject.toml', 'setup.cfg', 'setup.py'];
const INTERESTING = ['anyio', 'trio', 'httpx', 'httpx2', 'httpcore', 'httpcore2'];
const DEFAULT_ISORT: IsortSettings = { lineLength: 88, lengthSort: false, forceSortWithinSections: false, knownFirstParty: new Set(), extraStandardLibrary: new Set() };

/** A project with nothing declared: every choice falls back to what needs no declaration. */
export const UNKNOWN_PROJECT: PythonProject = { root: null, lowerBound: () => undefined, requiresPython: null, isort: DEFAULT_ISORT };

export function parseVersion(text: string): number[] {
  return (/^\d+(?:\.\d+)*/.exec(text.trim())?.[0] ?? '').split('.').filter(Boolean).map(Number);
}

export function versionAtLeast(version: readonly number[] | null | undefined, minimum: readonly number[]): boolean {
  if (!version) return false;
  for (let i = 0; i < minimum.length; i++) {
    const part = version[i] ?? 0;
    if (part !== minimum[i]) return part > minimum[i];
  }
  return true;
}

/** The lower bound a version specifier guarantees (`>=4.5,<5` -> [4, 5], `^0.27` -> [0, 27]); [] when it has none. */
export function specifierLowerBound(specifier: string): number[] {
  let bound: number[] = [];
  for (const clause of specifier.split(',')) {
    const match = /^\s*(~=|===|==|>=|>|\^|~)\s*v?(\d[\w.*]*)/.exec(clause);
    if (!match) continue;
    const version = parseVersion(match[2]);
    if (versionAtLeast(version, bound)) bound = version;
  }
  return bound;
}

function withoutComments(text: string): string {
  return text.replace(/(^|\s)#.*$/gm, '$1');
}

/** Every declaration of the interesting requirements in a file (PEP 508 strings, poetry's `name = "^1.2"`, requirements lines; not other TOML keys). */
function declarations(text: string): Map<string, number[][]> {
  const found = new Map<string, number[][]>();
  const add = (name: string, bound: number[]): void => {
    const key = name.toLowerCase();
    found.set(key, [...(found.get(key) ?? []), bound]);
  };
  const names = INTERESTING.join('|');
  const pep508 = new RegExp(`(?<=(?:^|["'])[ \\t]*)(${names})\\s*(?:\\[[^\\]]*\\])?\\s*((?:(?:~=|===|==|!=|<=|>=|<|>)\\s*[\\w.*+!-]+\\s*,?\\s*)*)(?=["';\\s]|$)(?!\\s*=[^=])`, 'gim');
  const poetry = new RegExp(`^\\s*(${names})\\s*=\\s*(?:\\{[^}]*version\\s*=\\s*)?["']([^"']*)["']`, 'gim');
  const plain = withoutComments(text);
  for (const match of plain.matchAll(poetry)) add(match[1], specifierLowerBound(match[2]));
  for (const match of plain.replace(poetry, '').matchAll(pep508)) add(match[1], specifierLowerBound(match[2]));
  return found;
}

function requiresPythonIn(text: string): number[] | null {
  const plain = withoutComments(text);
  const match = /(?:requires-python|python_requires)\s*=\s*["']?([^"'\n]+)/.exec(plain) ?? /^\s*python\s*=\s*["']([^"']+)["']/m.exec(plain);
  if (!match) return null;
  const bound = specifierLowerBound(match[1]);
  return bound.length > 0 ? bound : null;
}

function tomlTable(value: unknown, ...keys: string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null || !(key in current)) return undefined;
    current = Reflect.get(current, key);
  }
  return isTable(current) ? current : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** ruff's settings (`[tool.ruff]` of pyproject.toml, or ruff.toml), else isort's (`[tool.isort]`), else the defaults. */
function isortSettings(root: string, pyproject: unknown): IsortSettings {
  let ruff = tomlTable(pyproject, 'tool', 'ruff');
  for (const name of ['ruff.toml', '.ruff.toml']) {
    const file = path.join(root, name);
    if (ruff || !existsSync(file)) continue;
    try {
      ruff = parse(readFileSync(file, 'utf8'));
    } catch {
      ruff = undefined;
    }
  }
  const firstParty = new Set<string>();
  for (const dir of [root, path.join(root, 'src')]) {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.endsWith('.py')) firstParty.add(entry.slice(0, -3));
      else if (existsSync(path.join(dir, entry, '__init__.py'))) firstParty.add(entry);
    }
  }
  if (ruff) {
    const isort = tomlTable(ruff, 'lint', 'isort') ?? tomlTable(ruff, 'isort') ?? {};
    for (const name of strings(isort['known-first-party'])) firstParty.add(name);
    return {
      lineLength: typeof ruff['line-length'] === 'number' ? ruff['line-length'] : 88,
      lengthSort: isort['length-sort'] === true,
      forceSortWithinSections: isort['force-sort-within-sections'] === true,
      knownFirstParty: firstParty,
      extraStandardLibrary: new Set(strings(isort['extra-standard-library'])),
    };
  }
  const table = tomlTable(pyproject, 'tool', 'isort');
  const isort = table ?? {};
  for (const name of strings(isort.known_first_party)) firstParty.add(name);
  // isort's own default is 79; with no isort settings at all, ruff's (and black's) 88.
  const defaultLength = table && isort.profile !== 'black' ? 79 : 88;
  return {
    lineLength: typeof isort.line_length === 'number' ? isort.line_length : defaultLength,
    lengthSort: isort.length_sort === true,
    forceSortWithinSections: isort.force_sort_within_sections === true,
    knownFirstParty: firstParty,
    extraStandardLibrary: new Set(strings(isort.extra_standard_library)),
  };
}

const cache = new Map<string, PythonProject>();

/** The project of a Python file (see PythonProject), read once per directory. */
export function pythonProject(filePath: string): PythonProject {
  const start = path.dirname(path.resolve(filePath));
  const cached = cache.get(start);
  if (cached) return cached;
  let project = UNKNOWN_PROJECT;
  for (let dir = start; ; dir = path.dirname(dir)) {
    let entries: string[];
    try {
      entries = statSync(dir).isDirectory() ? readdirSync(dir) : [];
    } catch {
      entries = [];
    }
    const files = entries.filter((entry) => MARKERS.includes(entry) || /^requirements.*\.txt$/.test(entry));
    if (files.length > 0) {
      project = readProject(dir, files);
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  cache.set(start, project);
  return project;
}

function readProject(root: string, files: readonly string[]): PythonProject {
  const bounds = new Map<string, number[][]>();
  let requiresPython: number[] | null = null;
  let pyproject: unknown;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(path.join(root, file), 'utf8');
    } catch {
      continue;
    }
    if (file === 'pyproject.toml') {
      try {
        pyproject = parse(text);
      } catch {
        pyproject = undefined;
      }
    }
    for (const [name, list] of declarations(text)) bounds.set(name, [...(bounds.get(name) ?? []), ...list]);
    requiresPython ??= requiresPythonIn(text);
  }
  return {
    root,
    lowerBound(requirement) {
      const list = bounds.get(requirement.toLowerCase());
      if (!list) return undefined;
      return list.reduce((lowest, bound) => (versionAtLeast(bound, lowest) ? lowest : bound));
    },
    requiresPython,
    isort: isortSettings(root, pyproject),
  };
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
