import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import type { AsyncStyle } from './helper-test.js';
import { pythonProject, versionAtLeast, type PythonProject } from './project.js';

/**
 * Where the test of a module's drain helper goes, and how the repository writes its tests: pytest's `testpaths`
 * (else a `tests` or `test` folder), the folder there that mirrors the module's package path or holds its tests
 * already, pytest's file naming (`python_files`), the async plugin the suite uses (anyio's, pytest-asyncio,
 * pytest-trio) and whether its tests mark async tests one by one, the Python versions the project supports, and what
 * its linters ask of an import of a private name (ruff's `PLC2701`, pyright's `reportPrivateUsage`).
 */
export interface PythonTestLayout {
  path: string;
  /** The module as the test imports it (`mcp.client.streamable_http`). */
  module: string;
  asyncStyle: AsyncStyle;
  markAsync: boolean;
  python310: boolean;
  python311: boolean;
  importComment: string;
  project: PythonProject;
  /** Why no test is written (the repository's tests are not pytest's), else undefined. */
  skipped?: string;
  /** The configuration whose `testpaths` miss the test, else undefined. */
  notPickedUpBy?: string;
}

interface PytestConfig {
  file: string | null;
  testpaths: string[];
  pythonFiles: string[];
  asyncioMode: string | null;
  trioMode: boolean;
  addopts: string;
}

/** Test files read for their markers and imports, at most (the first 100 KB of each). */
const SCAN_FILES = 400;

export function pythonTestLayout(modulePath: string): PythonTestLayout {
  const project = pythonProject(modulePath);
  const root = projectRoot(modulePath) ?? project.root ?? path.dirname(modulePath);
  const config = pytestConfig(root);
  const module = importName(modulePath);
  const stem = path.basename(modulePath, '.py').replace(/^_+/, '');
  const roots = testRoots(root, config);
  const scan = scanTests(roots);
  const dir = testDirectory(root, roots, module, stem);
  const name = testFileName(`${stem}_drain`, config.pythonFiles);
  const testPath = path.join(dir, name);
  const declared = declarationsText(root);
  const style = asyncStyle(config, scan, declared);
  const python310 = versionAtLeast(project.requiresPython, [3, 10]);
  const python311 = versionAtLeast(project.requiresPython, [3, 11]);
  const relative = path.relative(root, testPath).split(path.sep).join('/');
  const comments = [pyrightPrivateUsage(root, relative) ? '# pyright: ignore[reportPrivateUsage]' : '', ruffSelects(root, 'PLC2701', relative) ? '# noqa: PLC2701' : ''].filter(Boolean);
  const layout: PythonTestLayout = {
    path: testPath,
    module,
    ...style,
    python310,
    python311,
    importComment: comments.join('  '),
    project,
  };
  const pytestUsed = config.file !== null || /\bpytest\b/.test(declared) || scan.pytest > 0 || scan.conftest;
  if (!pytestUsed && scan.unittest > 0) {
    layout.skipped = "the repository's tests are unittest's, not pytest's: the test drainguard writes is a pytest one";
  }
  if (config.testpaths.length > 0 && !config.testpaths.some((entry) => isInside(testPath, path.resolve(root, entry)))) {
    layout.notPickedUpBy = config.file ?? undefined;
  }
  return layout;
}

/** The nearest folder above the module with a project's or pytest's settings (pyproject.toml, setup.cfg, setup.py, pytest.ini, tox.ini). */
function projectRoot(modulePath: string): string | null {
  for (let dir = path.dirname(path.resolve(modulePath)); ; dir = path.dirname(dir)) {
    if (['pyproject.toml', 'setup.cfg', 'setup.py', 'pytest.ini', '.pytest.ini', 'tox.ini'].some((name) => existsSync(path.join(dir, name)))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function table(value: unknown, ...keys: string[]): Record<string, unknown> | undefined {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null || !(key in current)) return undefined;
    current = Reflect.get(current, key);
  }
  return typeof current === 'object' && current !== null ? (current as Record<string, unknown>) : undefined;
}

function words(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : [];
}

function toml(file: string): unknown {
  const text = readText(file);
  if (text === null) return undefined;
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/** pytest's settings: `[tool.pytest.ini_options]` of pyproject.toml, pytest.ini, tox.ini's `[pytest]`, setup.cfg's `[tool:pytest]` (pytest's own order). */
function pytestConfig(root: string): PytestConfig {
  const none: PytestConfig = { file: null, testpaths: [], pythonFiles: [], asyncioMode: null, trioMode: false, addopts: '' };
  for (const [name, section] of [['pytest.ini', 'pytest'], ['.pytest.ini', 'pytest'], ['pyproject.toml', null], ['tox.ini', 'pytest'], ['setup.cfg', 'tool:pytest']] as const) {
    const file = path.join(root, name);
    if (!existsSync(file)) continue;
    if (section === null) {
      const options = table(toml(file), 'tool', 'pytest', 'ini_options');
      if (!options) continue;
      return {
        file,
        testpaths: words(options.testpaths),
        pythonFiles: words(options.python_files),
        asyncioMode: typeof options.asyncio_mode === 'string' ? options.asyncio_mode : null,
        trioMode: options.trio_mode === true || options.trio_mode === 'true',
        addopts: words(options.addopts).join(' '),
      };
    }
    const values = iniSection(readText(file) ?? '', section);
    if (!values) continue;
    return {
      file,
      testpaths: words(values.get('testpaths')),
      pythonFiles: words(values.get('python_files')),
      asyncioMode: values.get('asyncio_mode') ?? null,
      trioMode: /^(true|1|yes)$/i.test(values.get('trio_mode') ?? ''),
      addopts: values.get('addopts') ?? '',
    };
  }
  return none;
}

/** The keys of one section of an ini file (continuation lines joined). */
function iniSection(text: string, name: string): Map<string, string> | null {
  let inside = false;
  let found = false;
  let key: string | null = null;
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) {
      inside = header[1].trim() === name;
      found ||= inside;
      key = null;
      continue;
    }
    if (!inside || /^\s*[#;]/.test(line)) continue;
    const entry = /^([\w.-]+)\s*[=:]\s*(.*)$/.exec(line);
    if (entry) {
      key = entry[1];
      values.set(key, entry[2].trim());
    } else if (key !== null && /^\s+\S/.test(line)) {
      values.set(key, `${values.get(key)} ${line.trim()}`.trim());
    }
  }
  return found ? values : null;
}

/** Where the repository keeps its tests: its `testpaths`, else `tests` or `test`. */
function testRoots(root: string, config: PytestConfig): string[] {
  const configured = config.testpaths.map((entry) => path.resolve(root, entry)).filter(isDirectory);
  if (configured.length > 0) return configured;
  return ['tests', 'test'].map((name) => path.join(root, name)).filter(isDirectory);
}

/** The module's dotted name: its path from the first folder up that is no package (`src/mcp/client/x.py` -> `mcp.client.x`). */
function importName(modulePath: string): string {
  const parts = [path.basename(modulePath, '.py')];
  let dir = path.dirname(modulePath);
  while (existsSync(path.join(dir, '__init__.py')) && path.dirname(dir) !== dir) {
    parts.unshift(path.basename(dir));
    dir = path.dirname(dir);
  }
  return parts.join('.');
}

interface TestScan {
  files: string[];
  pytest: number;
  unittest: number;
  conftest: boolean;
  marks: Record<AsyncStyle, number>;
  anyioBackend: boolean;
}

/** The test files under the roots (at most SCAN_FILES of them read): what they import and how they mark async tests. */
function scanTests(roots: readonly string[]): TestScan {
  const scan: TestScan = { files: [], pytest: 0, unittest: 0, conftest: false, marks: { anyio: 0, asyncio: 0, trio: 0 }, anyioBackend: false };
  const visit = (dir: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith('.') || entry === 'node_modules' || entry === '__pycache__') continue;
      const full = path.join(dir, entry);
      if (isDirectory(full)) {
        if (depth < 8) visit(full, depth + 1);
        continue;
      }
      if (!entry.endsWith('.py')) continue;
      scan.files.push(full);
      if (scan.files.length > SCAN_FILES && entry !== 'conftest.py') continue;
      const text = (readText(full) ?? '').slice(0, 100_000);
      if (entry === 'conftest.py') {
        scan.conftest = true;
        if (/\bdef anyio_backend\b/.test(text)) scan.anyioBackend = true;
      }
      if (/^\s*(?:import|from)\s+pytest\b/m.test(text)) scan.pytest++;
      if (/^\s*(?:import|from)\s+unittest\b/m.test(text)) scan.unittest++;
      for (const style of ['anyio', 'asyncio', 'trio'] as const) scan.marks[style] += text.split(`pytest.mark.${style}`).length - 1;
    }
  };
  for (const root of roots) visit(root, 0);
  return scan;
}

/** The declarations a project's requirements are read from (pyproject.toml, setup.cfg, setup.py, requirements*.txt, tox.ini). */
function declarationsText(root: string): string {
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    return '';
  }
  return entries
    .filter((entry) => /^(pyproject\.toml|setup\.cfg|setup\.py|tox\.ini|noxfile\.py|requirements.*\.txt|Pipfile)$/.test(entry))
    .map((entry) => readText(path.join(root, entry)) ?? '')
    .join('\n');
}

/**
 * The async plugin the suite runs its async tests with, and whether each test carries its marker: the configuration
 * first (`trio_mode`, `asyncio_mode = "auto"` mark every async test), then the markers its tests use most, then an
 * `anyio_backend` fixture or `-p anyio`, then the plugins it requires; else anyio's, which comes with httpx's anyio.
 */
function asyncStyle(config: PytestConfig, scan: TestScan, declared: string): { asyncStyle: AsyncStyle; markAsync: boolean } {
  if (config.trioMode) return { asyncStyle: 'trio', markAsync: false };
  if (config.asyncioMode === 'auto') return { asyncStyle: 'asyncio', markAsync: false };
  const ranked = (['anyio', 'asyncio', 'trio'] as const).filter((style) => scan.marks[style] > 0).sort((a, b) => scan.marks[b] - scan.marks[a]);
  if (ranked.length > 0) return { asyncStyle: ranked[0], markAsync: true };
  if (scan.anyioBackend || /(^|\s)-p\s+anyio\b/.test(config.addopts)) return { asyncStyle: 'anyio', markAsync: true };
  if (/\bpytest[-_]asyncio\b/i.test(declared)) return { asyncStyle: 'asyncio', markAsync: true };
  if (/\bpytest[-_]trio\b/i.test(declared)) return { asyncStyle: 'trio', markAsync: true };
  return { asyncStyle: 'anyio', markAsync: true };
}

/**
 * The folder of the test: among the folders under the test roots that mirror the module's package path from its end
 * (`tests/client` for `mcp/client/x.py`) or hold a test of the module already (`test_x.py`), the one that matches the
 * most of the package path, a folder with a test of the module first; else the first test root; else `tests`.
 */
function testDirectory(root: string, roots: readonly string[], module: string, stem: string): string {
  if (roots.length === 0) return path.join(root, 'tests');
  const packages = module.split('.').slice(0, -1);
  const candidates: { dir: string; score: number; hasTest: boolean }[] = [];
  const score = (dir: string, testRoot: string): number => {
    const parts = path.relative(testRoot, dir).split(path.sep).filter(Boolean);
    let matched = 0;
    while (matched < parts.length && matched < packages.length && parts[parts.length - 1 - matched] === packages[packages.length - 1 - matched]) matched++;
    return matched === parts.length ? matched : -1;
  };
  for (const testRoot of roots) {
    for (let skip = 0; skip <= packages.length; skip++) {
      const dir = path.join(testRoot, ...packages.slice(skip));
      if (isDirectory(dir)) candidates.push({ dir, score: packages.length - skip, hasTest: hasTestOf(dir, stem) });
    }
    const visit = (dir: string, depth: number): void => {
      if (hasTestOf(dir, stem)) candidates.push({ dir, score: score(dir, testRoot), hasTest: true });
      if (depth >= 6) return;
      let entries: string[] = [];
      try {
        entries = readdirSync(dir).sort();
      } catch {
        return;
      }
      for (const entry of entries) if (!entry.startsWith('.') && entry !== '__pycache__' && isDirectory(path.join(dir, entry))) visit(path.join(dir, entry), depth + 1);
    };
    visit(testRoot, 0);
  }
  candidates.sort((a, b) => b.score - a.score || Number(b.hasTest) - Number(a.hasTest) || a.dir.length - b.dir.length);
  return candidates[0]?.dir ?? roots[0];
}

function hasTestOf(dir: string, stem: string): boolean {
  return existsSync(path.join(dir, `test_${stem}.py`)) || existsSync(path.join(dir, `${stem}_test.py`));
}

/** `test_<name>.py`, or as the first of pytest's `python_files` patterns with one `*` names it. */
function testFileName(name: string, patterns: readonly string[]): string {
  const usable = patterns.filter((pattern) => pattern.endsWith('.py') && pattern.split('*').length === 2 && !/[?[\]/]/.test(pattern));
  if (patterns.length === 0 || usable.includes('test_*.py') || usable.length === 0) return `test_${name}.py`;
  return usable[0].replace('*', name);
}

/** ruff's settings as the repository declares them (pyproject.toml's `[tool.ruff]`, else ruff.toml or .ruff.toml), or undefined. */
function ruffConfig(root: string): Record<string, unknown> | undefined {
  const fromPyproject = table(toml(path.join(root, 'pyproject.toml')), 'tool', 'ruff');
  if (fromPyproject) return fromPyproject;
  for (const name of ['ruff.toml', '.ruff.toml']) {
    const parsed = toml(path.join(root, name));
    if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
  }
  return undefined;
}

/** Preview rules of ruff that this may ask about: checked only where the configuration turns preview on. */
const PREVIEW_RULES = new Set(['PLC2701']);

/**
 * Whether the repository's ruff checks `code` in the file at `relative` (its `select`/`extend-select`, less its
 * `ignore` and the `per-file-ignores` that match: the most specific selector wins, an ignore on a tie).
 */
export function ruffSelects(root: string, code: string, relative: string): boolean {
  const ruff = ruffConfig(root);
  if (!ruff) return false;
  const lint = table(ruff, 'lint') ?? {};
  const setting = (key: string): unknown => lint[key] ?? ruff[key];
  if (PREVIEW_RULES.has(code) && setting('preview') !== true && ruff.preview !== true) return false;
  const select = setting('select') === undefined ? ['E4', 'E7', 'E9', 'F'] : words(setting('select'));
  const selected = [...select, ...words(setting('extend-select'))];
  const ignored = [...words(setting('ignore'))];
  const perFile = table(lint, 'per-file-ignores') ?? table(ruff, 'per-file-ignores') ?? {};
  for (const [pattern, codes] of Object.entries(perFile)) if (globMatches(pattern, relative)) ignored.push(...words(codes));
  const best = (selectors: readonly string[]): number => Math.max(-1, ...selectors.map((selector) => (selector === 'ALL' ? 0 : code.startsWith(selector) ? selector.length : -1)));
  const chosen = best(selected);
  return chosen >= 0 && chosen > best(ignored);
}

/** A gitignore-like glob of ruff's per-file-ignores against a path from the project's root. */
function globMatches(pattern: string, relative: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
      if (pattern[i + 1] === '/') i++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(pattern.includes('/') ? `^${source}$` : `(^|/)${source}$`);
  return regex.test(relative) || (!pattern.includes('*') && relative.startsWith(`${pattern.replace(/\/$/, '')}/`));
}

/**
 * Whether pyright reports the test's import of a private name (`reportPrivateUsage`): on in its strict mode, for the
 * whole project or the paths `strict` lists, unless the settings (or the execution environment of the test's folder)
 * turn it off. From pyrightconfig.json, else pyproject.toml's `[tool.pyright]`.
 */
export function pyrightPrivateUsage(root: string, relative: string): boolean {
  let settings: Record<string, unknown> | undefined;
  const json = readText(path.join(root, 'pyrightconfig.json'));
  if (json !== null) {
    try {
      settings = JSON.parse(json.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown>;
    } catch {
      settings = undefined;
    }
  }
  settings ??= table(toml(path.join(root, 'pyproject.toml')), 'tool', 'pyright');
  if (!settings) return false;
  const level = (value: unknown): boolean | undefined => (value === undefined ? undefined : value !== false && value !== 'none' && value !== 'false');
  const under = (dir: string): boolean => {
    const clean = dir.replace(/^\.\/?/, '').replace(/\/$/, '');
    return clean === '' || relative === clean || relative.startsWith(`${clean}/`);
  };
  const environments = Array.isArray(settings.executionEnvironments) ? (settings.executionEnvironments as unknown[]) : [];
  for (const environment of environments) {
    if (typeof environment !== 'object' || environment === null) continue;
    const rootDir: unknown = Reflect.get(environment, 'root');
    if (typeof rootDir !== 'string' || !under(rootDir)) continue;
    const own = level(Reflect.get(environment, 'reportPrivateUsage'));
    if (own !== undefined) return own;
    break;
  }
  const explicit = level(settings.reportPrivateUsage);
  if (explicit !== undefined) return explicit;
  return settings.typeCheckingMode === 'strict' || words(settings.strict).some(under);
}
