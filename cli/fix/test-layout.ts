import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { TestFramework } from '../../rules/fix/helper-test.js';
import { LINTABLE_EXTENSIONS } from '../front-ends/registry.js';
import { walkDirectory } from '../shared/files.js';

/**
 * Where and how a repository's tests are written, so that the test of a helper module goes where its own test command
 * finds it, in its framework: read from its package.json files, its test configs (read for their literal values,
 * never run) and its existing tests.
 */
export interface TestLayout {
  framework: TestFramework;
  /** The test file to write. */
  path: string;
  /** `describe`/`it` imported from the framework (as the repository's tests do), or its globals. */
  importGlobals: boolean;
  testFunction: 'it' | 'test';
  /** How the repository's tests write relative imports: without extension (''), with `.js` or `.ts`; null: no example. */
  importExtension: '' | '.js' | '.ts' | null;
  /** A test of the repository's near the place, the example of its style (null: none). */
  sample: string | null;
  /** Its config runs tests in another environment (edge-runtime, jsdom): the file asks for Node. */
  nodeEnvironment: boolean;
  /** Where its config's literal patterns cannot be seen to pick the file up: the config (the report says so). */
  notPickedUpBy: string | null;
  /** The tsconfig that applies lists its `types` without Node's: the test references them itself. */
  referenceNodeTypes: boolean;
  /** How the repository imports types and values from one module: `import { a, type B }`, or a line each. */
  typeImports: 'inline' | 'separate';
}

const SOURCE = /\.[cm]?[jt]sx?$/;
const TEST_NAME = /\.(test|spec)\.[cm]?[jt]sx?$/;
const TEST_DIR = /^(__tests__|tests?)$/;
/** Not tests, nor the code under test: data, mocks, snapshots, build output, type tests. */
const NOT_TESTS = /(^|\/)(node_modules|__fixtures__|fixtures?|__mocks__|__snapshots__|dist|build|coverage)\/|\.d\.[cm]?ts$|\.test-d\.tsx?$/;

interface Manifest {
  dir: string;
  scripts: Record<string, string>;
  dependencies: Set<string>;
  json: Record<string, unknown>;
}

/**
 * The layout for a test of the helper module at `modulePath`: the test drainguard wrote earlier for it where there is
 * one; else beside the tests of its neighbours (the tests of the files in its directory), else where the package's
 * tests live (next to their code, in a `__tests__` folder beside it, or in a tests folder mirroring the source tree),
 * in the framework whose config picks that place up (else the one its scripts, configs and dependencies name, else
 * `node:test`).
 */
export async function testLayoutFor(modulePath: string, isOwnTest: (text: string) => boolean): Promise<TestLayout> {
  const root = packageRoot(path.dirname(modulePath));
  const files = (await walkDirectory(root, LINTABLE_EXTENSIONS)).files.filter((file) => !file.endsWith('.py') && existsSync(file));
  const relative = (file: string): string => path.relative(root, file).split(path.sep).join('/');
  const nested = nestedPackages(root, files);
  const inPackage = files.filter((file) => !NOT_TESTS.test(relative(file)) && !nested.some((dir) => !TEST_DIR.test(path.basename(dir)) && file.startsWith(`${dir}${path.sep}`)));
  const named = inPackage.filter((file) => TEST_NAME.test(file));
  const tests = named.length > 0 ? named : inPackage.filter((file) => relative(file).split('/').slice(0, -1).some((part) => TEST_DIR.test(part)));
  const moduleName = path.basename(modulePath).replace(SOURCE, '');
  const extension = path.extname(modulePath);

  const earlier = tests.find((file) => {
    const text = readText(file);
    return text !== null && isOwnTest(text) && new RegExp(`from ['"][^'"]*\\b${moduleName}(\\.[cm]?[jt]s)?['"]`).test(text);
  });
  const suffix = named.filter((file) => /\.spec\.[^.]+$/.test(file)).length > named.length / 2 ? '.spec' : '.test';
  const fileName = `${moduleName}${suffix}${extension}`;

  const manifests = [root, ...nested.filter((dir) => TEST_DIR.test(path.basename(dir))), workspaceRoot(root)]
    .filter((dir, index, all): dir is string => dir !== null && all.indexOf(dir) === index)
    .map(readManifest)
    .filter((manifest): manifest is Manifest => manifest !== null);
  const nearbyOf = (candidate: string): string[] => nearestTests(candidate, tests).map(readText).filter((text): text is string => text !== null);
  const choose = (candidate: string) => ({ path: candidate, choice: chooseFramework(candidate, manifests, nearbyOf(candidate), [root, ...nested]) });
  // The place the layout says, else (where its framework's config would not pick it up) beside the module, else beside
  // the existing test nearest to it that the config does pick up.
  let placed = choose(earlier ?? path.join(testDirectory(modulePath, root, tests, relative), fileName));
  if (!earlier && placed.choice.notPickedUpBy) {
    const alternatives = [path.dirname(modulePath), ...nearestTests(modulePath, tests, tests.length).map((test) => path.dirname(test))];
    const picked = [...new Set(alternatives)].slice(0, 12).map((dir) => choose(path.join(dir, fileName))).find((candidate) => candidate.choice.notPickedUpBy === null && candidate.choice.framework === placed.choice.framework);
    if (picked) placed = picked;
  }
  const { path: testPath, choice } = placed;
  const nearby = nearbyOf(testPath);
  const importing = nearby.filter((text) => /^\s*(describe|it|test)\(/m.test(text));
  const frameworkModule = { vitest: 'vitest', jest: '@jest/globals', mocha: 'mocha', 'node:test': 'node:test' }[choice.framework];
  const importGlobals =
    choice.framework === 'node:test' ||
    (importing.length === 0 ? choice.framework === 'vitest' : importing.filter((text) => importsGlobals(text, frameworkModule)).length * 2 > importing.length);
  const its = nearby.reduce((count, text) => count + (text.match(/^\s*it\(/gm)?.length ?? 0), 0);
  const testCalls = nearby.reduce((count, text) => count + (text.match(/^\s*test\(/gm)?.length ?? 0), 0);
  return {
    framework: choice.framework,
    path: testPath,
    importGlobals,
    testFunction: testCalls > its ? 'test' : 'it',
    importExtension: importExtension(nearby),
    sample: nearby[0] ?? null,
    nodeEnvironment: choice.otherEnvironment,
    notPickedUpBy: choice.notPickedUpBy,
    referenceNodeTypes: listsTypesWithoutNode(path.dirname(testPath)),
    typeImports: typeImportStyle([...nearby, ...siblingSources(path.dirname(modulePath), modulePath)]),
  };
}

/** The source files beside the module (their texts), at most twenty. */
function siblingSources(dir: string, modulePath: string): string[] {
  return readdirNames(dir)
    .filter((name) => /\.[cm]?tsx?$/.test(name) && !name.endsWith('.d.ts') && path.join(dir, name) !== modulePath)
    .slice(0, 20)
    .map((name) => readText(path.join(dir, name)))
    .filter((text): text is string => text !== null);
}

/**
 * How `texts` import values and types from one module: with `type` inside the braces (`import { a, type B } from`), or
 * in an `import type` of their own beside the values' import. The more frequent; a line each where neither is seen.
 */
function typeImportStyle(texts: readonly string[]): 'inline' | 'separate' {
  let inline = 0;
  let separate = 0;
  for (const text of texts) {
    for (const match of text.matchAll(/^import\s*\{([^}]*)\}\s*from/gm)) {
      const names = match[1].split(',').map((name) => name.trim()).filter(Boolean);
      if (names.some((name) => name.startsWith('type ')) && names.some((name) => !name.startsWith('type '))) inline++;
    }
    const typeSources = new Set([...text.matchAll(/^import\s+type\s*\{[^}]*\}\s*from\s*(['"][^'"]+['"])/gm)].map((match) => match[1]));
    for (const match of text.matchAll(/^import\s*\{[^}]*\}\s*from\s*(['"][^'"]+['"])/gm)) if (typeSources.has(match[1])) separate++;
  }
  return inline > separate ? 'inline' : 'separate';
}

/**
 * Whether the tsconfig.json nearest to `dir` (or the one it extends by a relative path) sets `compilerOptions.types`
 * without `node`: then TypeScript loads Node's types only where another file references them, and a test of its own
 * would not find `node:http`.
 */
function listsTypesWithoutNode(dir: string): boolean {
  let config: string | null = null;
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'tsconfig.json'))) {
      config = path.join(current, 'tsconfig.json');
      break;
    }
    if (path.dirname(current) === current) return false;
  }
  for (let depth = 0; config && depth < 5; depth++) {
    const text: string = readText(config) ?? '';
    const types = /"types"\s*:\s*\[([^\]]*)\]/.exec(text);
    if (types) return !/["'](@types\/)?node["']/.test(types[1]);
    const extended: string | undefined = /"extends"\s*:\s*"(\.{1,2}\/[^"]+)"/.exec(text)?.[1];
    config = extended ? path.resolve(path.dirname(config), extended.endsWith('.json') ? extended : `${extended}.json`) : null;
  }
  return false;
}

/**
 * The directory of the nearest package.json up from `dir` (its own where it has one), within its git work tree (the
 * test belongs to the module's repository, not to a project the repository sits in); else the work tree's top, else
 * `dir`.
 */
function packageRoot(dir: string): string {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    if (existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return dir;
  }
}

/** The package.json directory above a package (a monorepo's root, whose dev dependencies its packages use), or null. */
function workspaceRoot(root: string): string | null {
  if (existsSync(path.join(root, '.git'))) return null;
  for (let current = path.dirname(root); path.dirname(current) !== current; current = path.dirname(current)) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    if (existsSync(path.join(current, '.git'))) return null;
  }
  return null;
}

/** Directories below `root` with a package.json of their own (other packages, or a tests folder that is its own package). */
function nestedPackages(root: string, files: readonly string[]): string[] {
  const dirs = new Set(files.map((file) => path.dirname(file)));
  return [...dirs].filter((dir) => dir !== root && dir.startsWith(root) && existsSync(path.join(dir, 'package.json')));
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function readManifest(dir: string): Manifest | null {
  const text = readText(path.join(dir, 'package.json'));
  if (text === null) return null;
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const record = (value: unknown): Record<string, string> => (value && typeof value === 'object' ? (value as Record<string, string>) : {});
    const dependencies = new Set([...Object.keys(record(json.devDependencies)), ...Object.keys(record(json.dependencies))]);
    return { dir, scripts: record(json.scripts), dependencies, json };
  } catch {
    return null;
  }
}

/**
 * Where the test goes: beside the tests of the module's neighbours (tests named for the files of its directory); else
 * as the package keeps its tests: next to their code (the module's directory), in a `__tests__` folder beside the code,
 * or in its tests folder, in the directory named as the module's is, or mirroring the source tree (`src/core/x.ts` ->
 * `tests/core/`). With no test at all, next to the module.
 */
function testDirectory(modulePath: string, root: string, tests: readonly string[], relative: (file: string) => string): string {
  const moduleDir = path.dirname(modulePath);
  if (tests.length === 0) return moduleDir;
  const neighbours = new Set(siblingStems(moduleDir));
  const votes = new Map<string, number>();
  for (const test of tests) {
    const stem = path.basename(test).replace(/(\.(test|spec))?\.[cm]?[jt]sx?$/, '');
    if (neighbours.has(stem)) votes.set(path.dirname(test), (votes.get(path.dirname(test)) ?? 0) + 1);
  }
  const voted = [...votes].sort(([a, x], [b, y]) => y - x || a.length - b.length)[0];
  if (voted) return voted[0];

  const kinds = { colocated: 0, nested: 0, separate: 0 };
  for (const test of tests) {
    const dirs = relative(test).split('/').slice(0, -1);
    const at = dirs.findIndex((part) => TEST_DIR.test(part));
    if (at < 0) kinds.colocated++;
    else if (dirs[at] === '__tests__' && at > 0 && !TEST_DIR.test(dirs[0])) kinds.nested++;
    else kinds.separate++;
  }
  if (kinds.colocated >= kinds.nested && kinds.colocated >= kinds.separate) return moduleDir;
  if (kinds.nested >= kinds.separate) return path.join(moduleDir, '__tests__');

  const separate = tests.filter((test) => relative(test).split('/').slice(0, -1).some((part) => TEST_DIR.test(part)));
  const moduleParts = relative(path.join(moduleDir, 'x')).split('/').slice(0, -1);
  // The tests folder whose path ends as the module's directory's does (tests/unit/stream for src/core/stream).
  let best: { dir: string; score: number } | null = null;
  for (const dir of new Set(separate.map((test) => path.dirname(test)))) {
    const parts = relative(path.join(dir, 'x')).split('/').slice(0, -1);
    let score = 0;
    while (score < parts.length && score < moduleParts.length && parts.at(-1 - score) === moduleParts.at(-1 - score) && !TEST_DIR.test(parts.at(-1 - score)!)) score++;
    if (score > 0 && (!best || score > best.score || (score === best.score && dir.length < best.dir.length))) best = { dir, score };
  }
  if (best) return best.dir;
  // Else the tests folder most tests are in, mirroring the module's path below its source folder.
  const roots = new Map<string, number>();
  for (const test of separate) {
    const dirs = relative(test).split('/');
    const at = dirs.findIndex((part) => TEST_DIR.test(part));
    const testRoot = dirs.slice(0, at + 1).join('/');
    roots.set(testRoot, (roots.get(testRoot) ?? 0) + 1);
  }
  const [testRoot] = [...roots].sort(([a, x], [b, y]) => y - x || a.length - b.length)[0];
  return path.join(root, testRoot, ...moduleParts.slice(1));
}

/** The names (without extension) of the source files beside the module. */
function siblingStems(dir: string): string[] {
  return readdirNames(dir)
    .filter((name) => SOURCE.test(name) && !TEST_NAME.test(name))
    .map((name) => name.replace(SOURCE, ''));
}

function readdirNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The tests nearest to `testPath` (same directory first, then by distance), at most `count`. */
function nearestTests(testPath: string, tests: readonly string[], count = 5): string[] {
  const dir = path.dirname(testPath);
  const distance = (file: string): number => path.relative(dir, path.dirname(file)).split(path.sep).filter((part) => part !== '').length;
  return tests
    .filter((file) => file !== testPath)
    .map((file) => ({ file, distance: distance(file) }))
    .sort((a, b) => a.distance - b.distance || a.file.localeCompare(b.file))
    .slice(0, count)
    .map((entry) => entry.file);
}

function importsGlobals(text: string, from: string): boolean {
  return new RegExp(`import\\s*\\{[^}]*\\b(describe|it|test)\\b[^}]*\\}\\s*from\\s*['"]${from.replace('/', '\\/')}['"]`).test(text);
}

/** The extension the tests write on relative imports: none, `.js` or `.ts` (null: they have none). */
function importExtension(texts: readonly string[]): TestLayout['importExtension'] {
  const sources = texts.flatMap((text) => [...text.matchAll(/\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]));
  if (sources.length === 0) return null;
  if (sources.some((source) => /\.[cm]?tsx?$/.test(source))) return '.ts';
  if (sources.some((source) => /\.[cm]?jsx?$/.test(source))) return '.js';
  return '';
}

// ---------------------------------------------------------------------------------------------------------------
// The framework: which config picks the file up, and what the package's scripts, configs and dependencies name.

interface FrameworkChoice {
  framework: TestFramework;
  otherEnvironment: boolean;
  notPickedUpBy: string | null;
}

interface ConfigRead {
  file: string;
  /** Whether its literal patterns pick the test up: true, false, or null (it computes them; cannot tell). */
  picks: boolean | null;
  /** It sets an environment other than Node. */
  otherEnvironment: boolean;
}

const FRAMEWORKS: readonly TestFramework[] = ['vitest', 'jest', 'mocha', 'node:test'];

const SCRIPT_WORD: Record<TestFramework, RegExp> = {
  vitest: /\bvitest\b/,
  jest: /\bjest\b/,
  mocha: /\bmocha\b/,
  'node:test': /\bnode\b[^&|;]*\s--test\b|\btsx\s+--test\b/,
};

const DEPENDENCY: Record<TestFramework, readonly string[]> = {
  vitest: ['vitest'],
  jest: ['jest', 'ts-jest', '@jest/globals'],
  mocha: ['mocha'],
  'node:test': [],
};

/** The framework with the strongest evidence for `testPath`: a config that picks it up, the scripts, the nearby tests. */
function chooseFramework(testPath: string, manifests: readonly Manifest[], nearby: readonly string[], dirs: readonly string[]): FrameworkChoice {
  let best: { framework: TestFramework; score: number; configs: ConfigRead[] } | null = null;
  for (const framework of FRAMEWORKS) {
    const configs = [...new Set([...dirs, ...manifests.map((manifest) => manifest.dir)])].flatMap((dir) => readConfigs(framework, dir, testPath, manifests));
    let score = 0;
    if (configs.some((config) => config.picks === true)) score += 8;
    if (configs.length > 0) score += 2;
    for (const manifest of manifests) {
      if (SCRIPT_WORD[framework].test(manifest.scripts.test ?? '') || SCRIPT_WORD[framework].test(scriptFileText(manifest.dir, manifest.scripts.test))) score += 2;
      if (Object.entries(manifest.scripts).some(([name, script]) => name !== 'test' && /^test\b/.test(name) && SCRIPT_WORD[framework].test(script))) score += 1;
      if (DEPENDENCY[framework].some((name) => manifest.dependencies.has(name))) score += 1;
    }
    score += 4 * nearby.filter((text) => usesFramework(framework, text)).length;
    if (score > 0 && (!best || score > best.score)) best = { framework, score, configs };
  }
  if (!best) return { framework: 'node:test', otherEnvironment: false, notPickedUpBy: null };
  const { framework, configs } = best;
  const refusing = configs.length > 0 && configs.every((config) => config.picks === false) ? configs[0].file : null;
  return { framework, otherEnvironment: configs.some((config) => config.otherEnvironment), notPickedUpBy: refusing };
}

function usesFramework(framework: TestFramework, text: string): boolean {
  if (framework === 'vitest') return /from\s*['"]vitest['"]|\bvi\.(fn|mock|spyOn)\(/.test(text);
  if (framework === 'jest') return /from\s*['"]@jest\/globals['"]|\bjest\.(fn|mock|spyOn)\(/.test(text);
  if (framework === 'node:test') return /from\s*['"]node:test['"]|require\(['"]node:test['"]\)/.test(text);
  return /from\s*['"]chai['"]|require\(['"]chai['"]\)/.test(text);
}

/** A test script that runs a file (`./scripts/test`): the file's text, where it is one. */
function scriptFileText(dir: string, script: string | undefined): string {
  const file = /^(?:bash\s+|sh\s+)?(\.{0,2}\/?[\w./-]+)$/.exec(script?.trim() ?? '')?.[1];
  if (!file || !file.includes('/')) return '';
  return readText(path.join(dir, file))?.slice(0, 20_000) ?? '';
}

const CONFIG_NAMES: Record<TestFramework, RegExp> = {
  vitest: /^(vitest(\.[\w-]+)?\.config|vite\.config|vitest\.workspace)\.[cm]?[jt]s$/,
  jest: /^jest(\.[\w-]+)?\.config\.([cm]?[jt]s|json)$/,
  mocha: /^\.mocharc(\.(js|cjs|mjs|json|jsonc|yml|yaml))?$/,
  'node:test': /^$/,
};

/** The framework's configs in `dir` (and its package.json key), and whether each picks `testPath` up. */
function readConfigs(framework: TestFramework, dir: string, testPath: string, manifests: readonly Manifest[]): ConfigRead[] {
  const reads: ConfigRead[] = [];
  for (const name of readdirNames(dir)) {
    if (!CONFIG_NAMES[framework].test(name) || /bench/.test(name)) continue;
    const file = path.join(dir, name);
    const text = readText(file);
    if (text === null) continue;
    if (framework === 'vitest' && /^vite\.config/.test(name) && !/\btest\s*:/.test(text)) continue;
    reads.push({ file, ...picksUp(framework, text, dir, testPath) });
  }
  const manifest = manifests.find((candidate) => candidate.dir === dir);
  const key = framework === 'jest' ? manifest?.json.jest : framework === 'mocha' ? manifest?.json.mocha : undefined;
  if (key && typeof key === 'object') reads.push({ file: path.join(dir, 'package.json'), ...picksUp(framework, JSON.stringify(key), dir, testPath) });
  if (framework === 'node:test' || framework === 'mocha') {
    for (const script of Object.entries(manifest?.scripts ?? {}).filter(([name]) => /^test\b/.test(name)).map(([, script]) => script)) {
      if (!SCRIPT_WORD[framework].test(script)) continue;
      const patterns = [...script.matchAll(/(?:^|\s)['"]?([\w./*{},@?!+()[\]-]*(?:\*|\/|\.[cm]?[jt]s)[\w./*{},@?!+()[\]-]*)['"]?(?=\s|$)/g)].map((match) => match[1]).filter((pattern) => !pattern.startsWith('-') && !/^(node|mocha|tsx)$/.test(pattern));
      if (patterns.length > 0) reads.push({ file: path.join(dir, 'package.json'), picks: patterns.some((pattern) => matchesPattern(pattern, dir, testPath)), otherEnvironment: false });
    }
  }
  return reads;
}

/** Whether a config's literal patterns pick `testPath` up (null: it has patterns it computes, so it cannot be told). */
function picksUp(framework: TestFramework, text: string, dir: string, testPath: string): Omit<ConfigRead, 'file'> {
  const otherEnvironment = new RegExp(`\\b${framework === 'jest' ? 'testEnvironment' : 'environment'}\\s*:\\s*['"](?!node['"])[\\w-]+['"]`).test(text);
  if (framework === 'vitest') {
    const objects = objectsWith(text, 'include');
    if (objects.length === 0) return { picks: matchesPattern('**/*.{test,spec}.?(c|m)[jt]s?(x)', rootOf(text, dir), testPath), otherEnvironment };
    let computed = false;
    for (const object of objects) {
      const include = literalList(object, 'include');
      const exclude = literalList(object, 'exclude');
      const base = rootOf(object, dir);
      if (include.computed) computed = true;
      if (include.values.some((pattern) => matchesPattern(pattern, base, testPath)) && !exclude.values.some((pattern) => matchesPattern(pattern, base, testPath))) return { picks: true, otherEnvironment };
    }
    return { picks: computed ? null : false, otherEnvironment };
  }
  if (framework === 'jest') {
    const testMatch = literalList(text, 'testMatch');
    const regex = /\btestRegex\s*:\s*(?:['"]([^'"]+)['"]|\/((?:\\.|[^/\n])+)\/)/.exec(text);
    if (testMatch.computed && testMatch.values.length === 0) return { picks: null, otherEnvironment };
    const relative = path.relative(dir, testPath).split(path.sep).join('/');
    if (regex) return { picks: new RegExp(regex[1] ?? regex[2]).test(relative), otherEnvironment };
    const patterns = testMatch.values.length > 0 ? testMatch.values : ['**/__tests__/**/*.?([mc])[jt]s?(x)', '**/?(*.)+(spec|test).?([mc])[jt]s?(x)'];
    const roots = literalList(text, 'roots').values;
    const inRoots = roots.length === 0 || roots.some((rootDir) => !path.relative(path.resolve(dir, rootDir.replace('<rootDir>', '.')), testPath).startsWith('..'));
    return { picks: inRoots && patterns.some((pattern) => matchesPattern(pattern.replace('<rootDir>/', ''), dir, testPath)), otherEnvironment };
  }
  const spec = literalList(text, 'spec');
  const single = /\bspec['"]?\s*[:=]\s*['"]([^'"]+)['"]/.exec(text)?.[1];
  const patterns = [...spec.values, ...(single ? [single] : [])];
  if (patterns.length === 0) return { picks: matchesPattern('test/*.{js,cjs,mjs}', dir, testPath), otherEnvironment };
  return { picks: patterns.some((pattern) => matchesPattern(pattern, dir, testPath)), otherEnvironment };
}

/** A project's `root`/`dir` where the object sets one (relative to the config's directory), else the directory. */
function rootOf(text: string, dir: string): string {
  const root = /\b(?:root|dir)\s*:\s*['"]([^'"]+)['"]/.exec(text)?.[1];
  return root ? path.resolve(dir, root) : dir;
}

/** The string literals of `key: [...]` in `text`; `computed` where the list holds more than literals. */
function literalList(text: string, key: string): { values: string[]; computed: boolean } {
  const values: string[] = [];
  let computed = false;
  for (const match of text.matchAll(new RegExp(`["']?\\b${key}["']?\\s*:\\s*\\[`, 'g'))) {
    const list = balanced(text, match.index + match[0].length - 1, '[', ']');
    const literals = [...list.matchAll(/(['"`])((?:\\.|(?!\1).)*)\1/g)].map((literal) => literal[2]);
    values.push(...literals.filter((literal) => !literal.includes('${')));
    if (list.replace(/(['"`])((?:\\.|(?!\1).)*)\1/g, '').replace(/\/\/.*$/gm, '').replace(/[\s,[\]]/g, '') !== '' || literals.some((literal) => literal.includes('${'))) computed = true;
  }
  return { values, computed };
}

/** Each `{…}` of `text` that declares `key:` directly (vitest's `test: {…}` and its projects' objects). */
function objectsWith(text: string, key: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(new RegExp(`\\b${key}\\s*:`, 'g'))) {
    let depth = 0;
    for (let at = match.index; at >= 0; at--) {
      const char = text[at];
      if (char === '}' || char === ']') depth++;
      else if (char === '[' || char === '{') {
        if (depth === 0) {
          if (char === '{') found.push(balanced(text, at, '{', '}'));
          break;
        }
        depth--;
      }
    }
  }
  return found;
}

/** The text from `start` (an opening bracket) to its closing one, strings skipped. */
function balanced(text: string, from: number, open: string, close: string): string {
  let depth = 0;
  let quote: string | null = null;
  for (let at = from; at < text.length; at++) {
    const char = text[at];
    if (quote) {
      if (char === '\\') at++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === open) depth++;
    else if (char === close && --depth === 0) return text.slice(from, at + 1);
  }
  return text.slice(from);
}

/** Whether a glob (relative to `base`; `./` and `<rootDir>/` allowed; a bare directory means what is in it) matches `file`. */
export function matchesPattern(pattern: string, base: string, file: string): boolean {
  const relative = path.relative(base, file).split(path.sep).join('/');
  if (relative.startsWith('..')) return false;
  let glob = pattern.replace(/^\.\//, '').replace(/^<rootDir>\//, '');
  if (!/[*?{[]/.test(glob) && !SOURCE.test(glob)) glob = `${glob.replace(/\/$/, '')}/**`;
  return globToRegExp(glob).test(relative);
}

/** A glob as a regular expression: `**`, `*`, `?`, `[…]`, `{a,b}` and extglobs `?(…)`, `+(…)`, `*(…)`, `@(…)`. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  const groups: string[] = [];
  for (let at = 0; at < glob.length; at++) {
    const char = glob[at];
    const next = glob[at + 1];
    if ('?+*@!'.includes(char) && next === '(') {
      groups.push(char === '@' ? ')' : char === '!' ? ')' : `)${char === '+' ? '+' : char === '*' ? '*' : '?'}`);
      out += '(?:';
      at++;
    } else if (char === ')' && groups.length > 0) out += groups.pop();
    else if (char === '|' && groups.length > 0) out += '|';
    else if (char === '*' && next === '*') {
      if (glob[at + 2] === '/') {
        out += '(?:.*/)?';
        at += 2;
      } else {
        out += '.*';
        at++;
      }
    } else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else if (char === '{') {
      groups.push(')');
      out += '(?:';
    } else if (char === ',' && groups.at(-1) === ')') out += '|';
    else if (char === '}' && groups.length > 0) out += groups.pop();
    else if (char === '[') {
      const end = glob.indexOf(']', at);
      out += end > at ? glob.slice(at, end + 1) : '\\[';
      if (end > at) at = end;
    } else out += char.replace(/[.+^$|\\()]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
