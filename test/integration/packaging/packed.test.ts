// The package as users get it: `npm pack` (which runs `prepack`: the build), the tarball installed into a fresh
// project next to ESLint 10, typescript-eslint, jscodeshift and TypeScript from the npm registry,
// then the user's own tools on it, running the recipes of docs/recipes/ verbatim.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sarifValidator } from '../../cli/sarif-schema.js';
import {
  FIXTURES,
  ROOT,
  copyWorkTree,
  describeRun,
  fixture,
  recipeBlock,
  recipeCommands,
  recipeFileName,
  run,
  shell,
  userEnv,
  type RunResult,
} from './support.js';

const RULE_ID = 'drainguard/no-early-stream-close';
const ownDependencies = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
// The oxlint recipe installs oxlint as its docs say, at the version drainguard depends on (its native
// binary ships inside the npm package, an optional dependency per platform).
const OXLINT = `oxlint@${ownDependencies.oxlint}`;
const TRANSIENT_REGISTRY_ERROR = /npm error code (?:ETARGET|ETIMEDOUT|ECONNRESET|EAI_AGAIN|E5\d\d)\b/;
const USER_DEPENDENCIES = [OXLINT, 'eslint@10.15.0', 'typescript-eslint@8.72.0', '@typescript-eslint/parser@8.72.0', 'jscodeshift@17.4.0', 'typescript@5.9.3'];
/** An exports target: a path, or conditions (`import`, `require`, `types`, …) mapping to targets. */
type ExportTarget = string | { [condition: string]: ExportTarget };
const exportPaths = (target: ExportTarget): string[] => (typeof target === 'string' ? [target] : Object.values(target).flatMap(exportPaths));
const ownPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, ExportTarget>;
  bin: Record<string, string>;
};

const early = { ts: fixture('01-ts-while-reader-cancel-return'), js: fixture('02-js-while-reader-cancel-break') };
const forAwait = fixture('04-js-for-await-break-unbounded');
const component = fixture('22-tsx-component-effect');
const manual = fixture('34-js-manual-iterator-next');
const budgetZero = { ts: fixture('14-ts-budget-zero'), js: fixture('15-js-budget-zero-for-await') };
/**
 * A fixture's output (written for a helper module beside it) as a file that carries its own copy of the helpers
 * instead: it starts with that copy (with these limits) and goes on with the output without its import of the module.
 */
function expectOwnCopy(text: string, output: string, limits = '{ timeoutMs: 1000, maxBytes: 128 * 1024 }'): void {
  expect(text.startsWith(`// Past these limits a drain gives up and closes as the code did (0: no limit).\nconst DRAIN_LIMITS = ${limits};\n`), text).toBe(true);
  expect(text.endsWith(output.replace(/^import \{[^}]*\} from '\.\/drain-body\.js';\n\n?/m, '')), text).toBe(true);
}

const work = mkdtempSync(join(tmpdir(), 'drainguard-packed-'));
const project = join(work, 'project');
let tarball = '';
let tarEntries: string[] = [];
let tarVerbose = '';

afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  // Pack a copy of the work tree (with the repository's node_modules for the build), not the
  // repository itself: `prepack` rebuilds dist/, which other test files are running meanwhile.
  const source = join(work, 'source');
  copyWorkTree(source);
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  const packDir = join(work, 'pack');
  mkdirSync(packDir);
  const pack = await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: source });
  expect(pack.code, describeRun(pack)).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as [{ filename: string }];
  tarball = join(packDir, info.filename);

  const list = await run('tar', ['-tzf', tarball], { cwd: work });
  expect(list.code, describeRun(list)).toBe(0);
  tarEntries = list.stdout.split('\n').filter(Boolean);
  tarVerbose = (await run('tar', ['-tzvf', tarball], { cwd: work })).stdout;

  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'drainguard-user', private: true, type: 'module' }, null, 2)}\n`);
  // The user's install resolves fresh from the registry, which is briefly inconsistent right after a release (a
  // package naming a version of its dependency not served yet: ETARGET) or unreachable for a moment: tried again
  // after a pause, at most twice; any other failure, or the same one three times, fails the suite.
  const npmInstall = () => run('npm', ['install', '--no-audit', '--no-fund', '--save-dev', tarball, ...USER_DEPENDENCIES], { cwd: project, timeoutMs: 400_000 });
  let install = await npmInstall();
  for (let retry = 0; retry < 2 && install.code !== 0 && TRANSIENT_REGISTRY_ERROR.test(install.stderr); retry++) {
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    install = await npmInstall();
  }
  expect(install.code, describeRun(install)).toBe(0);
}, 1_300_000);

/** A directory of the user's project with these files (paths relative to it). */
function scenario(name: string, files: Record<string, string>): string {
  const dir = join(project, 'scenarios', name);
  mkdirSync(dir, { recursive: true });
  writeFiles(dir, files);
  return dir;
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

function read(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

const npx = (dir: string, ...args: string[]): Promise<RunResult> => run('npx', args, { cwd: dir });

/** A config recipe as a file entry of a scenario, under the name its first line gives. */
function configRecipe(label: string): Record<string, string> {
  const block = recipeBlock('eslint-flat-config.md', label);
  return { [recipeFileName(block)]: block };
}

interface Finding {
  ruleId: string | null;
  line: number;
  column: number;
  fatal?: boolean;
}

/**
 * `eslint --format json` (the project's installed ESLint, as `npx eslint` runs it; also from a
 * sub-project with its own package.json) in dir: findings per file (relative path), optionally
 * only drainguard's and fatal ones.
 */
async function eslint(dir: string, args: string[], onlyOurs = false): Promise<{ result: RunResult; findings: Record<string, Finding[]> }> {
  const result = await run(join(project, 'node_modules/.bin/eslint'), ['--format', 'json', ...args], { cwd: dir });
  expect([0, 1], describeRun(result)).toContain(result.code);
  const files = JSON.parse(result.stdout) as { filePath: string; messages: (Finding & { severity: number })[] }[];
  const findings: Record<string, Finding[]> = {};
  for (const file of files) {
    findings[relative(dir, file.filePath)] = file.messages
      .filter((message) => !onlyOurs || message.ruleId === RULE_ID || message.fatal)
      .map(({ ruleId, line, column, fatal }) => (fatal ? { ruleId, line, column, fatal } : { ruleId, line, column }));
  }
  return { result, findings };
}

const at = (site: { line: number; column: number }): Finding => ({ ruleId: RULE_ID, line: site.line, column: site.column });
const lintSources = {
  'src/early.ts': early.ts.input,
  'src/early.js': early.js.input,
  'src/clean.ts': early.ts.output,
  'src/clean.js': early.js.output,
};
const expectedLint = {
  'src/early.ts': [at(early.ts.sites[0])],
  'src/early.js': [at(early.js.sites[0])],
  'src/clean.ts': [],
  'src/clean.js': [],
};

describe('the tarball', () => {
  it('holds the built package, its types, docs, README and LICENSE, and nothing else', () => {
    expect(tarEntries.every((entry) => entry.startsWith('package/'))).toBe(true);
    const files = tarEntries.map((entry) => entry.slice('package/'.length));
    console.log(`drainguard tarball: ${files.length} files, ${readFileSync(tarball).length} bytes\n${files.join('\n')}`);
    for (const required of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/index.js',
      'dist/cli.js',
      'dist/codemod.cjs',
      'dist/rewrite.js',
      'dist/types/rules/index.d.ts',
      'dist/types/codemods/drain-terminal-event.d.cts',
      'docs/rules/no-early-stream-close.md',
      'dist/tree-sitter-python/tree-sitter-python.wasm',
      'dist/tree-sitter-python/LICENSE',
    ]) {
      expect(files, required).toContain(required);
    }
    const allowed = /^(package\.json|README\.md|LICENSE|docs\/rules\/[\w.-]+\.md|dist\/(chunks\/)?[\w.-]+\.(js|cjs)|dist\/types\/[\w./-]+\.d\.c?ts|dist\/tree-sitter-python\/(tree-sitter-python\.wasm|LICENSE))$/;
    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
  });

  it('has every exports and bin target, and an executable CLI', () => {
    const files = new Set(tarEntries.map((entry) => entry.slice('package/'.length)));
    const targets = Object.values(ownPackage.exports).flatMap(exportPaths);
    for (const target of [...targets, ...Object.values(ownPackage.bin)]) {
      expect(files, target).toContain(target.replace(/^\.\//, ''));
    }
    const cliLine = tarVerbose.split('\n').find((line) => line.endsWith('package/dist/cli.js'));
    expect(cliLine).toMatch(/^-rwx/);
    expect(read(project, 'node_modules/drainguard/dist/cli.js').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('passes publint', async () => {
    const result = await run(join(ROOT, 'node_modules/.bin/publint'), ['--strict', tarball], { cwd: work });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toContain('All good!');
  }, 120_000);
});

describe("the plugin in the user's ESLint (docs/recipes/eslint-flat-config.md)", () => {
  it('reports the early closes of a TS and a JS file at their exact positions and nothing on clean files', async () => {
    const dir = scenario('eslint-ts', { ...configRecipe('eslint-ts'), ...lintSources });
    const { result, findings } = await eslint(dir, ['src']);
    expect(findings, describeRun(result)).toEqual(expectedLint);
    expect(result.code).toBe(1);
  }, 180_000);

  it('reports the same with --concurrency 2 and --concurrency auto', async () => {
    const dir = join(project, 'scenarios/eslint-ts');
    for (const concurrency of ['2', 'auto']) {
      const { result, findings } = await eslint(dir, ['--concurrency', concurrency, 'src']);
      expect(findings, `--concurrency ${concurrency}\n${describeRun(result)}`).toEqual(expectedLint);
    }
  }, 180_000);

  it('works for JavaScript without typescript-eslint', async () => {
    const dir = scenario('eslint-js', {
      ...configRecipe('eslint-js'),
      'src/early.js': early.js.input,
      'src/early.mjs': forAwait.input,
      'src/clean.js': early.js.output,
    });
    expect(read(dir, 'eslint.config.mjs')).not.toContain('typescript-eslint');
    const { result, findings } = await eslint(dir, ['src']);
    expect(findings, describeRun(result)).toEqual({
      'src/early.js': [at(early.js.sites[0])],
      'src/early.mjs': [at(forAwait.sites[0])],
      'src/clean.js': [],
    });
  }, 180_000);

  it('works added to typescript-eslint’s recommended config', async () => {
    const dir = scenario('eslint-tseslint', {
      ...configRecipe('eslint-tseslint-recommended'),
      ...lintSources,
    });
    const { result, findings } = await eslint(dir, ['src'], true);
    expect(findings, describeRun(result)).toEqual(expectedLint);
  }, 180_000);
});

describe('the flat config recipes in a CommonJS project (what `npm init -y` makes)', () => {
  /** A scenario that is its own package, created by `npm init -y`; ESLint and drainguard resolve from the project above it. */
  async function commonJsScenario(name: string, files: Record<string, string>): Promise<string> {
    const dir = scenario(name, {});
    const init = await run('npm', ['init', '-y'], { cwd: dir });
    expect(init.code, describeRun(init)).toBe(0);
    expect((JSON.parse(read(dir, 'package.json')) as { type?: string }).type).toBe('commonjs');
    writeFiles(dir, files);
    return dir;
  }

  it('every config recipe names its file eslint.config.mjs', () => {
    for (const label of ['eslint-ts', 'eslint-js', 'eslint-tseslint-recommended']) {
      expect(recipeFileName(recipeBlock('eslint-flat-config.md', label)), label).toBe('eslint.config.mjs');
    }
  });

  it('the TypeScript recipe reports the same as in an ES module project', async () => {
    const dir = await commonJsScenario('eslint-ts-commonjs', configRecipe('eslint-ts'));
    writeFiles(dir, lintSources);
    const { result, findings } = await eslint(dir, ['src']);
    expect(findings, describeRun(result)).toEqual(expectedLint);
    expect(result.code).toBe(1);
  }, 180_000);

  it('the JavaScript recipe reports the same, where the same text as eslint.config.js fails to load', async () => {
    const block = recipeBlock('eslint-flat-config.md', 'eslint-js');
    const sources = { 'src/early.js': early.js.input, 'src/clean.js': early.js.output };
    const dir = await commonJsScenario('eslint-js-commonjs', configRecipe('eslint-js'));
    writeFiles(dir, sources);
    const { result, findings } = await eslint(dir, ['src']);
    expect(findings, describeRun(result)).toEqual({ 'src/early.js': [at(early.js.sites[0])], 'src/clean.js': [] });

    const misnamed = await commonJsScenario('eslint-js-commonjs-misnamed', { 'eslint.config.js': block });
    writeFiles(misnamed, sources);
    const failed = await run(join(project, 'node_modules/.bin/eslint'), ['src'], { cwd: misnamed });
    expect(failed.code, describeRun(failed)).toBe(2);
  }, 180_000);
});

describe('the plugin in oxlint (docs/recipes/oxlint.md)', () => {
  interface Report {
    file: string;
    line: number;
    column: number;
    message: string;
  }
  const byPosition = (a: Report, b: Report): number => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;

  /** `oxlint --format json` in dir: drainguard's reports (oxlint's own default rules may report other things). */
  async function oxlintReports(dir: string): Promise<Report[]> {
    const result = await run(join(project, 'node_modules/.bin/oxlint'), ['--format', 'json'], { cwd: dir });
    expect([0, 1], describeRun(result)).toContain(result.code);
    const { diagnostics } = JSON.parse(result.stdout) as {
      diagnostics: { code: string; message: string; filename: string; labels: { span: { line: number; column: number } }[] }[];
    };
    return diagnostics
      .filter((diagnostic) => diagnostic.code === 'drainguard(no-early-stream-close)')
      .map(({ filename, labels, message }) => ({ file: filename, line: labels[0].span.line, column: labels[0].span.column, message }))
      .sort(byPosition);
  }

  /** The user's ESLint with the flat config recipe, in dir: drainguard's reports (and no fatal error). */
  async function eslintReports(dir: string): Promise<Report[]> {
    const result = await run(join(project, 'node_modules/.bin/eslint'), ['--format', 'json', '.'], { cwd: dir });
    expect([0, 1], describeRun(result)).toContain(result.code);
    const files = JSON.parse(result.stdout) as { filePath: string; messages: { ruleId: string | null; fatal?: boolean; line: number; column: number; message: string }[] }[];
    expect(files.flatMap((file) => file.messages.filter((message) => message.fatal))).toEqual([]);
    return files
      .flatMap((file) =>
        file.messages
          .filter((message) => message.ruleId === RULE_ID)
          .map(({ line, column, message }) => ({ file: relative(dir, file.filePath), line, column, message })),
      )
      .sort(byPosition);
  }

  const examples = Object.fromEntries(
    ['sse-chat-client.ts', 'message-stream.js', 'mcp-tool-call.ts', 'drained-client.ts'].map((name) => [`examples/${name}`, read(join(ROOT, 'examples'), name)]),
  );
  const clean = { 'src/clean.ts': early.ts.output, 'src/clean.js': early.js.output, 'src/component.tsx': component.output };

  it('the config recipe enables only drainguard’s rule, through jsPlugins', () => {
    expect(JSON.parse(recipeBlock('oxlint.md', 'oxlint-config'))).toEqual({
      jsPlugins: ['drainguard'],
      ignorePatterns: ['**/node_modules/**'],
      rules: { 'drainguard/no-early-stream-close': 'error' },
    });
    expect(recipeCommands('oxlint.md', 'oxlint-run')).toEqual(['npx oxlint']);
  });

  it('reports what ESLint reports on the examples, at the same lines and columns with the same messages, and nothing on clean files', async () => {
    const dir = scenario('oxlint', {
      '.oxlintrc.json': recipeBlock('oxlint.md', 'oxlint-config'),
      ...configRecipe('eslint-ts'),
      ...examples,
      ...clean,
      'src/early.ts': early.ts.input,
    });
    const viaOxlint = await oxlintReports(dir);
    expect(viaOxlint.map(({ file, line, column }) => `${file}:${line}:${column}`)).toEqual([
      'examples/mcp-tool-call.ts:54:7',
      'examples/message-stream.js:28:40',
      'examples/sse-chat-client.ts:30:15',
      `src/early.ts:${early.ts.sites[0].line}:${early.ts.sites[0].column}`,
    ]);
    expect(viaOxlint).toEqual(await eslintReports(dir));

    // The recipe's own command, as typed: exit 1 on the reports.
    const typed = await shell(recipeCommands('oxlint.md', 'oxlint-run')[0], dir);
    expect(typed.code, describeRun(typed)).toBe(1);
    expect(typed.stdout).toContain('drainguard(no-early-stream-close)');

    const cleanOnly = scenario('oxlint-clean', { '.oxlintrc.json': recipeBlock('oxlint.md', 'oxlint-config'), ...clean, 'examples/drained-client.ts': examples['examples/drained-client.ts'] });
    expect(await oxlintReports(cleanOnly)).toEqual([]);
  }, 180_000);

  // SDK files of the corpus (`npm run corpus` installs them outside the repository; never committed).
  const corpusModules = join(process.env.DRAINGUARD_CORPUS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'drainguard-corpus'), 'node_modules');
  const sdkFiles = ['@mistralai/mistralai/src/lib/event-streams.ts', '@openrouter/sdk/esm/lib/event-streams.js'];
  const haveCorpus = sdkFiles.every((file) => existsSync(join(corpusModules, file)));
  if (!haveCorpus) console.log(`skipping the oxlint corpus check: run \`npm run corpus\` to install the SDKs into ${corpusModules}`);
  it.skipIf(!haveCorpus)('reports what ESLint reports on SDK files of the corpus (the cancel after `done` of the Speakeasy template)', async () => {
    const dir = scenario('oxlint-corpus', {
      '.oxlintrc.json': recipeBlock('oxlint.md', 'oxlint-config'),
      ...configRecipe('eslint-ts'),
      ...Object.fromEntries(sdkFiles.map((file) => [`sdk/${file}`, readFileSync(join(corpusModules, file), 'utf8')])),
    });
    const viaOxlint = await oxlintReports(dir);
    // The lines ../shared/corpus/expected.tsv lists as true positives.
    expect(viaOxlint.map((report) => `${report.file}:${report.line}`)).toEqual([`sdk/${sdkFiles[0]}:49`, `sdk/${sdkFiles[1]}:50`]);
    expect(viaOxlint).toEqual(await eslintReports(dir));
  }, 180_000);
});

describe('the codemod under plain jscodeshift (docs/recipes/jscodeshift.md)', () => {
  const sources = {
    'src/early.ts': early.ts.input,
    'src/early.js': early.js.input,
    'src/for-await.js': forAwait.input,
    'src/ui/component.tsx': component.input,
    'src/manual.js': manual.input,
    'src/clean.ts': early.ts.output,
    'src/module.mts': early.ts.input,
  };

  it('imports the helper module `drainguard fix` wrote, and then rewrites what fix rewrites, to the same text', async () => {
    const { 'src/module.mts': _mts, ...withoutMts } = sources;
    const cli = scenario('jscodeshift-vs-fix', withoutMts);
    const fix = await npx(cli, 'drainguard', 'fix', '--force', 'src');
    expect(fix.code, describeRun(fix)).toBe(1); // the manual site

    const dir = scenario('jscodeshift', { ...sources, 'src/drain-body.ts': read(cli, 'src/drain-body.ts') });
    const result = await shell(recipeBlock('jscodeshift.md', 'jscodeshift'), dir);
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toMatch(/\b4 ok\b/);
    expect(result.stdout).toContain('manual: nothing in scope can end a drain of this iterator early');
    for (const path of Object.keys(withoutMts)) expect(read(dir, path), path).toBe(read(cli, path));
    expect(read(dir, 'src/early.ts')).toBe(early.ts.output);
    expect(read(dir, 'src/ui/component.tsx')).toBe(component.output.replace("from './drain-body.js'", "from '../drain-body.js'"));
    expect(read(dir, 'src/clean.ts')).toBe(early.ts.output);
    expect(read(dir, 'src/manual.js')).toBe(manual.input);
    expect(read(dir, 'src/module.mts')).toBe(early.ts.input); // not among jscodeshift's default extensions: see the next recipe
    // JavaScript files cannot import a TypeScript module: each carries its own copy of what it uses.
    expectOwnCopy(read(dir, 'src/early.js'), early.js.output);
    expectOwnCopy(read(dir, 'src/for-await.js'), forAwait.output);
  }, 180_000);

  it("leaves code that the user's ESLint finds clean (the manual site stays reported)", async () => {
    const dir = join(project, 'scenarios/jscodeshift');
    writeFileSync(join(dir, 'eslint.config.mjs'), recipeBlock('eslint-flat-config.md', 'eslint-ts'));
    const { result, findings } = await eslint(dir, ['src']);
    expect(findings, describeRun(result)).toEqual({
      'src/early.ts': [],
      'src/early.js': [],
      'src/for-await.js': [],
      'src/ui/component.tsx': [],
      'src/manual.js': [at(manual.sites[0])],
      'src/clean.ts': [],
      'src/module.mts': [at(early.ts.sites[0])],
      'src/drain-body.ts': [],
    });
  }, 180_000);

  it('passes --drainTimeoutMs=0 through to the budget of the copy a file gets without a helper module, as fix writes it into the module', async () => {
    const sources = { 'src/zero.ts': budgetZero.ts.input, 'src/zero.js': budgetZero.js.input };
    const dir = scenario('jscodeshift-budget', sources);
    const result = await shell(recipeBlock('jscodeshift.md', 'jscodeshift-budget'), dir);
    expect(result.code, describeRun(result)).toBe(0);
    expectOwnCopy(read(dir, 'src/zero.ts'), budgetZero.ts.output, '{ timeoutMs: 0, maxBytes: 128 * 1024 }');
    expectOwnCopy(read(dir, 'src/zero.js'), budgetZero.js.output, '{ timeoutMs: 0, maxBytes: 128 * 1024 }');

    const cli = scenario('jscodeshift-budget-vs-fix', sources);
    const fix = await npx(cli, 'drainguard', 'fix', '--force', '--drain-timeout-ms', '0', 'src');
    expect(fix.code, describeRun(fix)).toBe(0);
    expect(read(cli, 'src/zero.ts')).toBe(budgetZero.ts.output);
    expect(read(cli, 'src/drain-body.ts')).toContain('\nexport const DRAIN_LIMITS: { timeoutMs: number; maxBytes: number } = {\n  timeoutMs: 0,\n  maxBytes: 128 * 1024,\n};\n');
    expectOwnCopy(read(cli, 'src/zero.js'), budgetZero.js.output, '{ timeoutMs: 0, maxBytes: 128 * 1024 }');
  }, 180_000);

  it('rewrites .mts and .cts files with --extensions, runs the same with --no-babel, counts a file that does not parse as an error', async () => {
    const broken = 'export async function f(reader) {\n  if (data === "[DONE]") { await reader.cancel(); \n';
    const dir = scenario('jscodeshift-extensions', {
      'src/a.ts': early.ts.input,
      'src/b.mts': early.ts.input,
      'src/c.cts': early.ts.input,
      'src/broken.ts': broken,
    });
    expect(recipeBlock('jscodeshift.md', 'jscodeshift-extensions')).toContain('--no-babel');
    const all = await shell(recipeBlock('jscodeshift.md', 'jscodeshift-extensions'), dir);
    expect(all.code, describeRun(all)).toBe(0);
    for (const path of ['src/a.ts', 'src/b.mts', 'src/c.cts']) expectOwnCopy(read(dir, path), early.ts.output);
    expect(read(dir, 'src/broken.ts')).toBe(broken);
    expect(all.stdout).toMatch(/\b1 errors\b/);
    expect(all.stdout).toMatch(/\b3 ok\b/);
  }, 180_000);
});

describe('the CLI from the installed package', () => {
  it('drainguard lint: exit 1 with the finding, exit 0 on a clean directory', async () => {
    const dir = scenario('cli', { 'src/early.ts': early.ts.input, 'src/clean.ts': early.ts.output, 'clean/clean.js': early.js.output });
    const dirty = await npx(dir, 'drainguard', 'lint', 'src');
    expect(dirty.code, describeRun(dirty)).toBe(1);
    expect(dirty.stdout).toContain('early.ts');
    expect(dirty.stdout).toContain(`${early.ts.sites[0].line}:${early.ts.sites[0].column}`);
    expect(dirty.stdout).toContain(RULE_ID);
    expect(dirty.stdout).not.toContain('clean.ts');

    const clean = await npx(dir, 'drainguard', 'lint', 'clean');
    expect(clean.code, describeRun(clean)).toBe(0);
  }, 180_000);

  it('drainguard lint runs the rule through oxlint: the same SARIF as through ESLint, without loading ESLint or the TypeScript compiler', async () => {
    const dir = scenario('cli-engines', { 'src/early.ts': early.ts.input, 'src/early.js': early.js.input, 'src/clean.ts': early.ts.output });
    const record = join(dir, 'loaded.json');
    // DRAINGUARD_ENGINE=oxlint: on files this small the CLI would otherwise not start oxlint.
    const preload = { NODE_OPTIONS: `--require ${join(ROOT, 'test/support/report-loaded.cjs')}`, DRAINGUARD_LOADED_FILE: record, DRAINGUARD_ENGINE: 'oxlint' };
    // The installed bin itself, not npx: the preload records the packages of the last process to exit.
    const drainguard = join(project, 'node_modules/.bin/drainguard');
    const viaOxlint = await run(drainguard, ['lint', '--format', 'sarif', 'src'], { cwd: dir, env: userEnv(preload) });
    expect(viaOxlint.code, describeRun(viaOxlint)).toBe(1);
    const loaded = JSON.parse(read(dir, 'loaded.json')) as string[];
    // (@typescript-eslint/types is bundled into the CLI now; node-sarif-builder formats this run's SARIF.)
    expect(loaded, 'the preload saw the packages drainguard loads').toContain('node-sarif-builder');
    expect(loaded).not.toContain('eslint');
    expect(loaded).not.toContain('typescript');
    const viaEslint = await run(drainguard, ['lint', '--format', 'sarif', 'src'], { cwd: dir, env: userEnv({ DRAINGUARD_ENGINE: 'eslint' }) });
    expect(viaOxlint.stdout).toBe(viaEslint.stdout);
    const log = JSON.parse(viaOxlint.stdout) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[];
    };
    const found = log.runs[0].results.map(({ locations: [location] }) => [location.physicalLocation.artifactLocation.uri, location.physicalLocation.region.startLine, location.physicalLocation.region.startColumn]);
    expect(found.sort()).toEqual([
      ['src/early.js', early.js.sites[0].line, early.js.sites[0].column],
      ['src/early.ts', early.ts.sites[0].line, early.ts.sites[0].column],
    ]);
  }, 180_000);

  it('drainguard lint and fix on Python files: the installed package finds its tree-sitter grammar', async () => {
    const python = (file: string) => readFileSync(join(FIXTURES, 'python', '02-aconnect-sse-break', file), 'utf8');
    const dir = scenario('cli-python', { 'pkg/transport.py': python('input.py'), 'pkg/clean.py': python('output.py') });
    const lint = await npx(dir, 'drainguard', 'lint', 'pkg');
    expect(lint.code, describeRun(lint)).toBe(1);
    expect(lint.stdout).toMatch(/transport\.py\n\s+12:23\s+error\s/);
    expect(lint.stdout).not.toContain('clean.py');
    const fix = await npx(dir, 'drainguard', 'fix', '--force', 'pkg');
    expect(fix.code, describeRun(fix)).toBe(0);
    expect(read(dir, 'pkg/transport.py')).toBe(python('output.py'));
  }, 180_000);

  it('drainguard --version prints the package version', async () => {
    const result = await npx(project, 'drainguard', '--version');
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout.trim()).toBe(ownPackage.version);
  }, 60_000);
});

describe('TypeScript users', () => {
  it('type-check imports of drainguard and drainguard/codemod (module nodenext)', async () => {
    const dir = scenario('typecheck', {
      'tsconfig.json': `${JSON.stringify(
        {
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: [],
          },
          include: ['*.ts', '*.cts'],
        },
        null,
        2,
      )}\n`,
      'esm.ts': [
        "import type { ESLint, Linter } from 'eslint';",
        "import drainguard from 'drainguard';",
        "import transform from 'drainguard/codemod';",
        '',
        'export const plugin: ESLint.Plugin = drainguard;',
        'export const config: Linter.Config[] = [drainguard.configs.recommended];',
        'export const name: string = drainguard.meta.name;',
        "export const rule = drainguard.rules['no-early-stream-close'];",
        "export const output: Promise<string | undefined> = transform({ path: 'a.ts', source: '' }, {}, { drainTimeoutMs: 0 });",
        '// @ts-expect-error the transform takes { path, source }',
        "void transform('a.ts', {});",
        '',
      ].join('\n'),
      'cjs.cts': [
        "import transform = require('drainguard/codemod');",
        '',
        'export const output: Promise<string | undefined> = transform({ path: "a.js", source: "" }, { report: (message: string) => void message });',
        '',
      ].join('\n'),
    });
    const result = await npx(dir, 'tsc', '-p', 'tsconfig.json');
    expect(result.code, describeRun(result)).toBe(0);
  }, 180_000);
});

describe('husky + lint-staged (docs/recipes/husky-lint-staged.md)', () => {
  it('the hook runs lint-staged, whose config runs drainguard lint on all JS/TS extensions', () => {
    expect(recipeCommands('husky-lint-staged.md', 'husky-pre-commit')).toEqual(['npx lint-staged']);
    const config = JSON.parse(recipeBlock('husky-lint-staged.md', 'lint-staged-config')) as { 'lint-staged': Record<string, string> };
    expect(config['lint-staged']).toEqual({ '*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}': 'drainguard lint' });
  });

  it('drainguard lint on the staged files lint-staged passes (absolute paths): blocks an early close, lets clean files through', async () => {
    const dir = scenario('lint-staged', {
      'src/a.ts': early.ts.input,
      'src/b.ts': early.ts.output,
      'src/c.mjs': early.js.output,
      'src/types.d.ts': 'export declare function complete(url: string): Promise<string[]>;\n',
    });
    const [command, ...args] = Object.values(
      (JSON.parse(recipeBlock('husky-lint-staged.md', 'lint-staged-config')) as { 'lint-staged': Record<string, string> })['lint-staged'],
    )[0].split(' ');
    // lint-staged resolves the command from node_modules/.bin and appends the staged files' absolute paths.
    const bin = join(project, 'node_modules/.bin', command);
    const staged = (...paths: string[]) => paths.map((path) => join(dir, path));

    const blocked = await run(bin, [...args, ...staged('src/a.ts', 'src/b.ts')], { cwd: dir });
    expect(blocked.code, describeRun(blocked)).toBe(1);
    expect(blocked.stdout).toContain(join(dir, 'src/a.ts'));
    expect(blocked.stdout).toContain(RULE_ID);
    expect(blocked.stdout).not.toContain(join(dir, 'src/b.ts'));

    const passed = await run(bin, [...args, ...staged('src/b.ts', 'src/c.mjs', 'src/types.d.ts')], { cwd: dir });
    expect(passed.code, describeRun(passed)).toBe(0);
  }, 180_000);
});

describe('GitHub Actions with SARIF upload (docs/recipes/github-actions-sarif.md)', () => {
  const workflow = recipeBlock('github-actions-sarif.md', 'github-actions-workflow');
  const lintStep = /- name: drainguard lint\n\s+run: (.+)\n/.exec(workflow);

  it('checks out, sets up Node 20, lints to drainguard.sarif and uploads it even when the lint step fails', () => {
    expect(workflow).toContain('uses: actions/checkout@v4');
    expect(workflow).toMatch(/uses: actions\/setup-node@v4\n\s+with:\n\s+node-version: 20\n/);
    expect(lintStep?.[1]).toBe('npx drainguard lint --format sarif > drainguard.sarif');
    expect(workflow).toMatch(/- name: Upload SARIF to code scanning\n\s+if: always\(\)\n\s+uses: github\/codeql-action\/upload-sarif@v3\n\s+with:\n\s+sarif_file: drainguard.sarif\n/);
    expect(workflow).toMatch(/^permissions:\n(?: {2}\S.*\n)*? {2}security-events: write/m);
  });

  const python = ['/usr/bin/python3', 'python3'].find(
    (candidate) => spawnSync(candidate, ['-c', 'import yaml'], { stdio: 'ignore' }).status === 0,
  );
  if (!python) console.log('skipping the YAML parse of the workflow: no python3 with PyYAML (it comes with pre-commit)');
  it.skipIf(!python)('is valid YAML with the steps in that order', () => {
    const parsed = spawnSync(python!, ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'], {
      input: workflow,
      encoding: 'utf8',
    });
    expect(parsed.status, parsed.stderr).toBe(0);
    const data = JSON.parse(parsed.stdout) as {
      permissions: Record<string, string>;
      jobs: { drainguard: { 'runs-on': string; steps: { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, unknown> }[] } };
    };
    const steps = data.jobs.drainguard.steps;
    expect(steps.map((step) => step.uses ?? step.run)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm ci',
      'npx drainguard lint --format sarif > drainguard.sarif',
      'github/codeql-action/upload-sarif@v3',
    ]);
    expect(steps[1].with).toMatchObject({ 'node-version': 20 });
    expect(steps[4]).toMatchObject({ if: 'always()', with: { sarif_file: 'drainguard.sarif' } });
    expect(data.permissions['security-events']).toBe('write');
  });

  it('its lint step fails with the finding in a schema-valid drainguard.sarif whose help link is the rule docs page', async () => {
    const dir = scenario('github-actions', { 'src/early.ts': early.ts.input, 'src/clean.ts': early.ts.output });
    const result = await shell(lintStep![1], dir); // GitHub's default shell: bash -e -o pipefail
    expect(result.code, describeRun(result)).toBe(1);
    const log = JSON.parse(read(dir, 'drainguard.sarif')) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string; helpUri?: string }[] } };
        results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[];
      }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.version).toBe('2.1.0');

    const installed = (await import(pathToFileURL(join(project, 'node_modules/drainguard/dist/index.js')).href)) as {
      default: { rules: Record<string, { meta: { docs: { url: string } } }> };
    };
    const docsUrl = installed.default.rules['no-early-stream-close'].meta.docs.url;
    expect(docsUrl).toMatch(/^https:\/\/.+\/docs\/rules\/no-early-stream-close\.md$/);
    expect(log.runs[0].tool.driver.rules.find((rule) => rule.id === RULE_ID)?.helpUri).toBe(docsUrl);

    expect(log.runs[0].results).toHaveLength(1);
    const [finding] = log.runs[0].results;
    expect(finding.ruleId).toBe(RULE_ID);
    expect(finding.locations[0].physicalLocation.artifactLocation.uri).toMatch(/src\/early\.ts$/);
    expect(finding.locations[0].physicalLocation.region).toMatchObject({
      startLine: early.ts.sites[0].line,
      startColumn: early.ts.sites[0].column,
    });
  }, 180_000);
});

describe('one-shot fix on a fork (docs/recipes/one-shot-fix-on-a-fork.md)', () => {
  const git = (dir: string, ...args: string[]) =>
    run('git', ['-c', 'user.name=drainguard test', '-c', 'user.email=test@drainguard.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir });

  async function fork(name: string): Promise<string> {
    const dir = scenario(name, { 'src/early.ts': early.ts.input, 'src/early.js': early.js.input, 'src/clean.ts': early.ts.output });
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'the SDK']]) {
      const result = await git(dir, ...args);
      expect(result.code, describeRun(result)).toBe(0);
    }
    return dir;
  }

  it('lint, dry run with diffs, fix, review, lint clean', async () => {
    const dir = await fork('fork');
    const commands = recipeCommands('one-shot-fix-on-a-fork.md', 'fork-fix');
    expect(commands).toEqual([
      'npx drainguard lint',
      'npx drainguard fix --dry --print',
      'npx drainguard fix',
      'git diff',
      'npx drainguard lint',
    ]);
    const [lint, dry, fix, diff, relint] = commands;

    const found = await shell(lint, dir);
    expect(found.code, describeRun(found)).toBe(1);
    expect(found.stdout).toContain('early.ts');
    expect(found.stdout).toContain('early.js');

    const preview = await shell(dry, dir);
    expect(preview.code, describeRun(preview)).toBe(0);
    expect(preview.stdout).toContain('--- a/src/early.ts');
    expect(preview.stdout).toContain('+++ b/src/early.js');
    expect((await git(dir, 'status', '--porcelain')).stdout).toBe('');

    const fixed = await shell(fix, dir);
    expect(fixed.code, describeRun(fixed)).toBe(0);
    expect(read(dir, 'src/early.ts')).toBe(early.ts.output);
    expect(read(dir, 'src/drain-body.ts')).toBe(read(FIXTURES, '01-ts-while-reader-cancel-return/drain-body.ts'));
    expectOwnCopy(read(dir, 'src/early.js'), early.js.output);
    expect(read(dir, 'src/clean.ts')).toBe(early.ts.output);

    const review = await shell(diff, dir);
    expect(review.code, describeRun(review)).toBe(0);
    expect(review.stdout).toContain('+      void drainReader(reader, () => reader.cancel());');

    const clean = await shell(relint, dir);
    expect(clean.code, describeRun(clean)).toBe(0);

    // As the recipe says: a file it would rewrite that has uncommitted changes makes fix refuse (exit 2), naming it.
    writeFileSync(join(dir, 'src/early.js'), `${early.js.input}// a local edit\n`);
    const refused = await shell(fix, dir);
    expect(refused.code, describeRun(refused)).toBe(2);
    expect(refused.stderr).toContain('uncommitted changes: src/early.js.');
    expect(read(dir, 'src/early.js')).toBe(`${early.js.input}// a local edit\n`);
  }, 180_000);

  it('--drain-timeout-ms sets the budget', async () => {
    const dir = await fork('fork-budget');
    const commands = recipeCommands('one-shot-fix-on-a-fork.md', 'fork-fix-budget');
    expect(commands).toEqual(['npx drainguard fix --drain-timeout-ms 5000']);
    const fixed = await shell(commands[0], dir);
    expect(fixed.code, describeRun(fixed)).toBe(0);
    // The budget lives in the helper module (and in the copy of a file that cannot import it); the sites read the same.
    expect(read(dir, 'src/early.ts')).toBe(early.ts.output);
    expect(read(dir, 'src/drain-body.ts')).toContain('\nexport const DRAIN_LIMITS: { timeoutMs: number; maxBytes: number } = {\n  timeoutMs: 5000,\n  maxBytes: 128 * 1024,\n};\n');
    expectOwnCopy(read(dir, 'src/early.js'), early.js.output, '{ timeoutMs: 5000, maxBytes: 128 * 1024 }');
  }, 180_000);
});

it('the project under test is the installed tarball, not the repository', () => {
  expect(existsSync(join(project, 'node_modules/drainguard/package.json'))).toBe(true);
  expect(existsSync(join(project, 'node_modules/drainguard/rules'))).toBe(false);
  const installed = JSON.parse(read(project, 'node_modules/drainguard/package.json')) as { version: string };
  expect(installed.version).toBe(ownPackage.version);
  expect(userEnv().npm_lifecycle_event).toBeUndefined();
});

describe('drainguard/undici from the installed tarball (docs/transport.md)', () => {
  it('imports as ESM and CommonJS, type-checks, and `node --import drainguard/undici/register` keeps a cancelled fetch on its connection', async () => {
    const dir = scenario('transport', {
      'esm.mjs': [
        "import { drainOnAbort, installDrainOnAbort, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from 'drainguard/undici';",
        "console.log(typeof drainOnAbort, typeof installDrainOnAbort, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS);",
      ].join('\n'),
      'cjs.cjs': "const { drainOnAbort } = require('drainguard/undici');\nconsole.log(typeof drainOnAbort());\n",
      'calls.mjs': [
        "import { startStreamServer } from 'drainguard/testing';",
        "const server = await startStreamServer({ mode: 'end', tailDelayMs: 100 });",
        'for (let call = 1; call <= 3; call++) {',
        '  const reader = (await fetch(server.url)).body.getReader();',
        "  let text = '';",
        "  while (!text.includes('[DONE]')) text += new TextDecoder().decode((await reader.read()).value);",
        '  await reader.cancel();',
        '  await server.waitFor((s) => s.finished + s.closedEarly >= call);',
        '  await new Promise((resolve) => setTimeout(resolve, 50));',
        '}',
        'console.log(JSON.stringify(server.stats()));',
        'await server.close();',
      ].join('\n'),
      'typed.ts': [
        "import { Agent } from 'undici';",
        "import { drainOnAbort, type DrainReport } from 'drainguard/undici';",
        'const reports: DrainReport[] = [];',
        'export const dispatcher = new Agent().compose(drainOnAbort({ maxBytes: 1024, onDrain: (report) => reports.push(report) }));',
        'export const outcomes = (): string[] => reports.map((report) => report.outcome);',
      ].join('\n'),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true }, files: ['typed.ts'] }),
    });
    const esm = await run(process.execPath, ['esm.mjs'], { cwd: dir });
    expect(esm.stdout, describeRun(esm)).toBe('function function 131072 1000\n');
    const cjs = await run(process.execPath, ['cjs.cjs'], { cwd: dir });
    expect(cjs.stdout, describeRun(cjs)).toBe('function\n');
    const types = await run(join(project, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir });
    expect(types.code, describeRun(types)).toBe(0);
    const calls = await run(process.execPath, ['--import', 'drainguard/undici/register', 'calls.mjs'], { cwd: dir });
    expect(calls.stdout, describeRun(calls)).toBe('{"connections":1,"requests":3,"closedEarly":0,"finished":3}\n');
  }, 120_000);
});
