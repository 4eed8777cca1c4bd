import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { exportsLimits, modulePieces } from '../../rules/fix/helper-module.js';
import { helperTestText, isHelperTest, type TestFramework } from '../../rules/fix/helper-test.js';
import { detectStyle, styleSettingsFor } from '../../rules/fix/style.js';
import { isTypeScriptPath } from '../../rules/parser-options.js';
import { diffPath } from './diff-paths.js';
import { formatRewrite, type FormatProblem } from './formatter.js';
import { unifiedDiff, type FileReport } from './report.js';
import { allAdded, hasTsconfig, type Verifier } from './verify.js';
import { testLayoutFor } from './test-layout.js';

/**
 * `drainguard fix` writes, with each helper module it creates or extends, a test of it in the repository's own
 * framework and place (unless `--no-test`), so that the module is covered where the repository measures coverage.
 */

/** A helper module the run writes, with the rewritten files that import it. */
export interface ModuleToTest {
  path: string;
  text: string;
  /** Its text before the run (null: the run creates it). */
  before: string | null;
  importers: ReadonlyArray<{ file: string; text: string }>;
}

/** The test of one helper module: what to write, or why nothing is written. */
export interface HelperTest {
  path: string;
  modulePath: string;
  framework: TestFramework;
  /** The text to write; null where it is not written (`skipped` says why). */
  text: string | null;
  /** The test drainguard wrote there earlier (null: none). */
  existing: string | null;
  skipped?: string;
  /** What the report adds (a config that does not pick the file up). */
  note?: string;
  /** Why the repository's formatter did not format it, where it could not run. */
  formatProblem?: FormatProblem;
}

export interface HelperTestOptions {
  verifier: Verifier | undefined;
  verify: 'auto' | 'on' | 'off';
  signal?: AbortSignal;
}

/** The tests of the run's helper modules, in their order; a module whose test would not change has none. */
export async function planHelperTests(modules: readonly ModuleToTest[], options: HelperTestOptions): Promise<HelperTest[]> {
  const tests: HelperTest[] = [];
  for (const module of modules) {
    if (options.signal?.aborted) break;
    const test = await planHelperTest(module, options);
    if (test) tests.push(test);
  }
  return tests;
}

async function planHelperTest(module: ModuleToTest, { verifier, verify, signal }: HelperTestOptions): Promise<HelperTest | null> {
  const layout = await testLayoutFor(module.path, isHelperTest);
  const base = { path: layout.path, modulePath: module.path, framework: layout.framework, existing: null, text: null };
  const current = existsSync(layout.path) ? readFileSync(layout.path, 'utf8') : null;
  if (current !== null && !isHelperTest(current)) return { ...base, skipped: 'a file drainguard did not write is there; it is left as it is' };
  if (!exportsLimits(module.text)) return { ...base, skipped: 'the helper module does not export DRAIN_LIMITS, which the test shortens' };
  const typescript = isTypeScriptPath(layout.path);
  const style = detectStyle((layout.sample ?? module.text).replace(/^\uFEFF/, ''), typescript, styleSettingsFor(layout.path));
  const text = helperTestText(modulePieces(module.text), {
    framework: layout.framework,
    importGlobals: layout.importGlobals,
    testFunction: layout.testFunction,
    moduleSpecifier: moduleSpecifier(layout.path, module, layout.importExtension, layout.framework),
    nodeEnvironment: layout.nodeEnvironment,
    referenceNodeTypes: layout.referenceNodeTypes,
    typeImports: layout.typeImports,
    style,
  });
  if (text === '') return null;
  const { text: formatted, problem } = await formatRewrite(layout.path, null, text, signal);
  if (formatted === current) return null;
  if (verifier && typescript && (verify === 'on' || hasTsconfig(layout.path))) {
    // As the project's own type-check sees it: where its tsconfig includes the test (the module is new, nothing else
    // imports it yet, so it is checked whether or not the tsconfig lists it).
    const changes = [
      { path: layout.path, before: current, after: formatted },
      { path: module.path, before: module.before, after: module.text },
    ];
    const [diagnostic] = allAdded(await verifier.addedByFile(changes, layout.path, { check: [layout.path], roots: [module.path] }));
    if (diagnostic !== undefined) return { ...base, existing: current, skipped: `it does not type-check here: ${diagnostic}` };
  }
  const note = layout.notPickedUpBy ? `${path.basename(layout.notPickedUpBy)} does not pick it up as it reads: add it to its test patterns` : undefined;
  return { ...base, text: formatted, existing: current, ...(note ? { note } : {}), ...(problem ? { formatProblem: problem } : {}) };
}

/**
 * The helper module as the test imports it: relative, with the extension the repository's tests write on relative
 * imports (else the one the rewritten files wrote on their import of the module; else `.js`, none for jest, which
 * resolves what it is given).
 */
function moduleSpecifier(testPath: string, module: ModuleToTest, fromTests: '' | '.js' | '.ts' | null, framework: TestFramework): string {
  let relative = path.relative(path.dirname(testPath), module.path).split(path.sep).join('/');
  if (!relative.startsWith('.')) relative = `./${relative}`;
  const extension = path.extname(module.path);
  const base = relative.slice(0, relative.length - extension.length);
  if (extension === '.mjs' || extension === '.mts') return `${base}${extension.replace('t', 'j')}`;
  const name = path.basename(module.path, extension);
  const fromImporters = module.importers
    .map((importer) => new RegExp(`from\\s*['"]\\.{1,2}/[^'"]*\\b${name}(\\.[cm]?[jt]s)?['"]`).exec(importer.text))
    .find((match) => match !== null);
  const written = fromTests ?? (fromImporters ? (fromImporters[1] ?? '') : framework === 'jest' ? '' : '.js');
  if (written === '') return base;
  return written === '.ts' && isTypeScriptPath(module.path) ? relative : `${base}.js`;
}

/** The files `fix` will write for the tests (the refusal on uncommitted changes and `--print`'s diff root take them). */
/** What writing a test needs of it: a helper module's (`HelperTest`) or a file's own helpers' (`InFileHelperTest`). */
export type TestToWrite = Pick<HelperTest, 'path' | 'text' | 'existing' | 'skipped' | 'note'> & { framework: string };

/** The files `fix` will write for the tests (the refusal on uncommitted changes and `--print`'s diff root take them). */
export function helperTestPaths(tests: readonly TestToWrite[]): string[] {
  return tests.filter((test) => test.text !== null).map((test) => test.path);
}

/**
 * Writes a test (unless `dry` or its module could not be written: the report then says `unwritten`) and returns its
 * report: `test: "created"`, `"updated"` or `"not written"` with the reason, its diff where `patchRoot` is given.
 */
export async function writeHelperTest(
  test: TestToWrite,
  { dry, patchRoot, moduleWritten, unwritten = 'the helper module could not be written' }: { dry: boolean; patchRoot: string | undefined; moduleWritten: boolean; unwritten?: string },
): Promise<FileReport> {
  if (test.text === null) return { path: test.path, changed: false, sites: [], test: 'not written', note: test.skipped ?? '' };
  if (!moduleWritten) return { path: test.path, changed: false, sites: [], test: 'not written', note: unwritten };
  const report: FileReport = { path: test.path, changed: true, sites: [], test: test.existing === null ? 'created' : 'updated', framework: test.framework, ...(test.note ? { note: test.note } : {}) };
  if (patchRoot !== undefined) report.diff = unifiedDiff(diffPath(patchRoot, test.path), test.existing, test.text);
  if (dry) return report;
  try {
    await mkdir(path.dirname(test.path), { recursive: true });
    await writeFileAtomic(test.path, test.text, { encoding: 'utf8' });
  } catch (error) {
    return { path: test.path, changed: false, sites: [], error: `cannot write: ${error instanceof Error ? error.message : String(error)}` };
  }
  return report;
}
