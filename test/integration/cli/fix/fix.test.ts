import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { FIXTURES, copyFixtureInput, runCli, tempDir } from './run-cli.js';
import { parseFixJson, type LintResultJson } from '../../../cli/helpers.js';

const expectedOutput = (name: string, ext: string): string => readFileSync(join(FIXTURES, name, `output${ext}`), 'utf8');
const inputOf = (name: string, ext: string): string => readFileSync(join(FIXTURES, name, `input${ext}`), 'utf8');
/** The helper module `drainguard fix` writes beside a fixture's output (its expected text). */
const expectedHelper = (name: string, ext: string): string => readFileSync(join(FIXTURES, name, `drain-body${ext}`), 'utf8');
const fileReport = <T extends { path: string }>(report: { files: T[] }, path: string): T => report.files.find((file) => file.path === path)!;

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

function gitRepoWith(files: Array<[string, string, string]>): string {
  const dir = tempDir('fix-git');
  git(dir, 'init', '-q');
  for (const [name, ext, file] of files) copyFixtureInput(name, ext, dir, file);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

const FIX_JSON_SCHEMA = {
  type: 'object',
  required: ['files', 'summary'],
  additionalProperties: false,
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'changed', 'sites'],
        additionalProperties: false,
        properties: {
          path: { type: 'string' },
          changed: { type: 'boolean' },
          error: { type: 'string' },
          diff: { type: 'string' },
          helper: { enum: ['created', 'updated'] },
          test: { enum: ['created', 'updated', 'not written'] },
          framework: { enum: ['vitest', 'jest', 'mocha', 'node:test'] },
          note: { type: 'string' },
          sites: {
            type: 'array',
            items: {
              type: 'object',
              required: ['line', 'column', 'status'],
              additionalProperties: false,
              properties: {
                line: { type: 'integer', minimum: 1 },
                column: { type: 'integer', minimum: 1 },
                status: { enum: ['fixed', 'manual'] },
                reason: { type: 'string' },
              },
            },
          },
        },
      },
    },
    formatting: {
      type: 'array',
      items: {
        type: 'object',
        required: ['formatter', 'config', 'reason', 'files', 'run'],
        additionalProperties: false,
        properties: {
          formatter: { enum: ['prettier', 'biome', 'oxfmt'] },
          config: { type: 'string' },
          reason: { type: 'string' },
          files: { type: 'array', items: { type: 'string' } },
          run: { type: 'string' },
        },
      },
    },
    summary: {
      type: 'object',
      required: ['filesScanned', 'sitesFound', 'fixed', 'manual', 'errors'],
      additionalProperties: false,
      properties: {
        ...Object.fromEntries(['filesScanned', 'sitesFound', 'fixed', 'manual', 'errors'].map((key) => [key, { type: 'integer', minimum: 0 }])),
        interrupted: {
          type: 'object',
          required: ['phase', 'filesNotWritten'],
          additionalProperties: false,
          properties: { phase: { enum: ['reading', 'formatting', 'type-checking', 'writing'] }, filesNotWritten: { type: 'integer', minimum: 0 } },
        },
      },
    },
  },
} as const;

describe('drainguard fix', () => {
  it('rewrites a file in a clean git work tree, creates the helper module it imports beside it, and exits 0', async () => {
    const dir = gitRepoWith([['01-ts-while-reader-cancel-return', '.ts', 'client.ts']]);
    const result = await runCli(['fix'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts'));
    expect(readFileSync(join(dir, 'drain-body.ts'), 'utf8')).toBe(expectedHelper('01-ts-while-reader-cancel-return', '.ts'));
    // With no test framework and no test in the repository, the test of the module is a node:test file beside it.
    expect(result.stdout).toBe(
      'drain-body.ts  helper module created\ndrain-body.test.ts  test of the helper module created (node:test)\nclient.ts:11:13  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n',
    );
    expect(readFileSync(join(dir, 'drain-body.test.ts'), 'utf8')).toContain("\nimport { describe, it } from 'node:test';\nimport { DRAIN_LIMITS, drainReader } from './drain-body.js';\n");
  });

  it('checks only the files it rewrites: a modified file it does not touch is no reason to refuse', async () => {
    const dir = gitRepoWith([
      ['01-ts-while-reader-cancel-return', '.ts', 'client.ts'],
      ['28-ts-manual-close-as-value', '.ts', 'manual.ts'],
    ]);
    writeFileSync(join(dir, 'notes.md'), 'draft\n');
    git(dir, 'add', 'notes.md');
    writeFileSync(join(dir, 'manual.ts'), `${inputOf('28-ts-manual-close-as-value', '.ts')}// local edit\n`);
    const result = await runCli(['fix', '.'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts'));
  });

  it('refuses when a file it would rewrite has uncommitted changes, names it, changes nothing, and names --force', async () => {
    const dir = gitRepoWith([
      ['01-ts-while-reader-cancel-return', '.ts', 'client.ts'],
      ['02-js-while-reader-cancel-break', '.js', 'other.js'],
    ]);
    writeFileSync(join(dir, 'other.js'), `${inputOf('02-js-while-reader-cancel-break', '.js')}// local edit\n`);
    const result = await runCli(['fix', '.'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'drainguard fix: refusing to rewrite a file that has uncommitted changes: other.js.\n' +
        'Commit or stash it first so the rewrite can be reviewed as its own diff, or pass --force to rewrite anyway (--dry shows what would change).\n',
    );
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(inputOf('01-ts-while-reader-cancel-return', '.ts'));
    expect(git(dir, 'status', '--porcelain')).toBe(' M other.js\n');
  });

  it("a second fix right after a first goes on: the first one's changes are not files it rewrites", async () => {
    const dir = gitRepoWith([['01-ts-while-reader-cancel-return', '.ts', 'a/client.ts']]);
    copyFixtureInput('05-ts-for-await-return-value', '.ts', dir, 'b/final.ts');
    expect((await runCli(['fix', 'a'], dir)).code).toBe(0);
    git(dir, 'add', 'b/final.ts');
    git(dir, 'commit', '-qm', 'add b');
    const second = await runCli(['fix', '--json', '.'], dir);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const report = parseFixJson(second);
    // The module the first run made (in a/, still uncommitted) is found and given the pieces b/final.ts needs.
    expect(report.files.map((file) => [file.path, file.changed, file.helper ?? file.test])).toEqual([
      [join(dir, 'a/drain-body.ts'), true, 'updated'],
      [join(dir, 'a/drain-body.test.ts'), true, 'updated'],
      [join(dir, 'b/final.ts'), true, undefined],
    ]);
    // The module's test, which the first run wrote, now tests the piece it gained.
    expect(readFileSync(join(dir, 'a/drain-body.test.ts'), 'utf8')).toContain("\ndescribe('drainable', { timeout: 10_000 }, () => {\n");
    expect(readFileSync(join(dir, 'b/final.ts'), 'utf8')).toBe(expectedOutput('05-ts-for-await-return-value', '.ts').replace("from './drain-body.js'", "from '../a/drain-body.js'"));
    const module = readFileSync(join(dir, 'a/drain-body.ts'), 'utf8');
    expect(module.startsWith(expectedHelper('01-ts-while-reader-cancel-return', '.ts').trimEnd())).toBe(true);
    expect(module).toContain('\nexport function drainable<T>(\n');
    expect(readdirSync(join(dir, 'b'))).toEqual(['final.ts']);
  });

  it('--force rewrites a dirty file', async () => {
    const dir = gitRepoWith([['01-ts-while-reader-cancel-return', '.ts', 'client.ts']]);
    writeFileSync(join(dir, 'client.ts'), `${inputOf('01-ts-while-reader-cancel-return', '.ts')}\n`);
    const result = await runCli(['fix', '--force'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(`${expectedOutput('01-ts-while-reader-cancel-return', '.ts')}\n`);
  });

  it('--dry writes nothing (also on a dirty tree) and --print shows unified diffs, the new helper module\'s too, that git apply takes', async () => {
    const dir = gitRepoWith([['16-ts-budget-custom', '.ts', 'budget.ts']]);
    writeFileSync(join(dir, 'budget.ts'), `${inputOf('16-ts-budget-custom', '.ts')}\n`);
    const result = await runCli(['fix', '--dry', '--print', '--drain-timeout-ms', '2500', 'budget.ts'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'budget.ts'), 'utf8')).toBe(`${inputOf('16-ts-budget-custom', '.ts')}\n`);
    expect(readdirSync(dir).sort()).toEqual(['.git', 'budget.ts']);
    expect(result.stdout).toContain('--- /dev/null\n+++ b/drain-body.ts\n@@ -0,0 +1,88 @@\n+// Past these limits a drain gives up and closes as the code did (0: no limit).\n+export const DRAIN_LIMITS: { timeoutMs: number; maxBytes: number } = {\n+  timeoutMs: 2500,\n+  maxBytes: 128 * 1024,\n+};\n');
    expect(result.stdout).toContain('--- a/budget.ts\n+++ b/budget.ts\n');
    expect(result.stdout).toContain('-      await reader.cancel();\n+      void drainReader(reader, () => reader.cancel());\n');
    expect(result.stderr).toContain('(dry run: nothing written)'); // with --print, stdout holds only the diffs
    expect(result.stdout).not.toContain('\u001b[');
    writeFileSync(join(dir, 'fix.diff'), result.stdout);
    git(dir, 'apply', 'fix.diff');
    expect(readFileSync(join(dir, 'budget.ts'), 'utf8')).toBe(`${expectedOutput('16-ts-budget-custom', '.ts')}\n`);
    expect(readFileSync(join(dir, 'drain-body.ts'), 'utf8')).toBe(expectedHelper('16-ts-budget-custom', '.ts'));
  });

  it('--json follows the documented schema and counts manual sites (exit 1)', async () => {
    const dir = tempDir('fix-json');
    copyFixtureInput('01-ts-while-reader-cancel-return', '.ts', dir, 'a.ts');
    copyFixtureInput('28-ts-manual-close-as-value', '.ts', dir, 'b.ts');
    writeFileSync(join(dir, 'clean.js'), 'export const cancel = () => job.cancel();\n');
    const result = await runCli(['fix', '--json'], dir);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { files: Array<{ path: string; changed: boolean; sites: unknown[] }>; summary: unknown };
    const validate = new Ajv({ allErrors: true }).compile(FIX_JSON_SCHEMA);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.summary).toEqual({ filesScanned: 3, sitesFound: 2, fixed: 1, manual: 1, errors: 0 });
    expect(report.files.map((file) => [file.path, file.changed])).toEqual([
      [join(dir, 'drain-body.ts'), true],
      [join(dir, 'drain-body.test.ts'), true],
      [join(dir, 'a.ts'), true],
      [join(dir, 'b.ts'), false],
    ]);
    expect(report.files[1]).toEqual({ path: join(dir, 'drain-body.test.ts'), changed: true, sites: [], test: 'created', framework: 'node:test' });
    expect(report.files[3].sites).toEqual([{ line: 8, column: 14, status: 'manual', reason: 'the close is used as a value, not as a statement of its own' }]);
  });

  it('says what keeps the connections of the sites left manual meanwhile (the transports)', async () => {
    const dir = tempDir('fix-manual');
    copyFixtureInput('28-ts-manual-close-as-value', '.ts', dir, 'b.ts');
    const result = await runCli(['fix', '--dry'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'b.ts:8:14  manual  the close is used as a value, not as a statement of its own\n' +
        '1 file scanned, 1 site: 0 fixed, 1 manual, 0 errors (dry run: nothing written)\n' +
        'next: until the manual sites are rewritten by hand, drainguard/undici (Node) and drainguard-httpx (Python) keep their connections at run time with no source change\n',
    );
  });

  it('reports an unwritable file with exit 1 while the writable one is fixed', async () => {
    const dir = tempDir('fix-readonly');
    const locked = copyFixtureInput('02-js-while-reader-cancel-break', '.js', dir, 'locked.js');
    copyFixtureInput('01-ts-while-reader-cancel-return', '.ts', dir, 'open.ts');
    chmodSync(locked, 0o444);
    execFileSync('chattr', ['+i', locked]);
    try {
      const result = await runCli(['fix', '--json'], dir);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as { files: Array<{ path: string; changed: boolean; error?: string }>; summary: { errors: number } };
      const lockedReport = report.files.find((file) => file.path === locked)!;
      expect(lockedReport.changed).toBe(false);
      expect(lockedReport.error).toMatch(/^cannot write: E(PERM|ACCES)/);
      expect(report.summary.errors).toBe(1);
    } finally {
      execFileSync('chattr', ['-i', locked]);
    }
    expect(readFileSync(locked, 'utf8')).toBe(inputOf('02-js-while-reader-cancel-break', '.js'));
    expect(readFileSync(join(dir, 'open.ts'), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts'));
    // The TypeScript file imports the module; the JavaScript one would have had its own copy.
    expect(readdirSync(dir).sort()).toEqual(['drain-body.test.ts', 'drain-body.ts', 'locked.js', 'open.ts']);
  });

  it('keeps CRLF line endings and a byte order mark', async () => {
    const dir = tempDir('fix-crlf');
    const crlf = copyFixtureInput('18-js-crlf', '.js', dir, 'crlf.js');
    const bom = copyFixtureInput('23-js-bom', '.js', dir, 'bom.js');
    const result = await runCli(['fix'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(crlf)).toEqual(Buffer.from(expectedOutput('18-js-crlf', '.js'), 'utf8'));
    expect(readFileSync(crlf, 'utf8')).not.toMatch(/[^\r]\n/);
    expect(readFileSync(bom).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('reports an unparsable file and goes on with the others', async () => {
    const dir = tempDir('fix-parse');
    writeFileSync(join(dir, 'broken.ts'), 'export async function f() { reader.cancel( }\n');
    copyFixtureInput('01-ts-while-reader-cancel-return', '.ts', dir, 'ok.ts');
    const result = await runCli(['fix'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^broken\.ts {2}error {2}cannot parse: 1:\d+ Parsing error: /m);
    expect(result.stdout).toContain('ok.ts:11:13  fixed\n');
    expect(readFileSync(join(dir, 'ok.ts'), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts'));
  });

  it('parses a file named on the command line even without a close in it, and reports its syntax error as lint does', async () => {
    const dir = tempDir('fix-named-parse');
    writeFileSync(join(dir, 'broken.js'), 'const x = ;\n');
    writeFileSync(join(dir, 'bad.py'), 'if True\n    x = 1\n');
    writeFileSync(join(dir, 'fine.js'), 'export const y = 1;\n');
    const named = await runCli(['fix', '--dry', 'broken.js', 'bad.py', 'fine.js'], dir);
    expect(named).toEqual({
      code: 1,
      stdout: [
        "bad.py  error  cannot parse: 1:8 Parsing error: expected ':'",
        'broken.js  error  cannot parse: 1:11 Parsing error: Unexpected token ;',
        '3 files scanned, 0 sites: 0 fixed, 0 manual, 2 errors (dry run: nothing written)',
        '',
      ].join('\n'),
      stderr: '',
    });
    const lint = await runCli(['lint', 'broken.js', 'bad.py'], dir);
    expect(lint.stdout).toContain("  1:8  error  Parsing error: expected ':'\n");
    expect(lint.stdout).toContain('  1:11  error  Parsing error: Unexpected token ;\n');
    // Found by walking the directory, the same files cannot hold a close: the pre-filter skips them.
    expect(await runCli(['fix', '--dry'], dir)).toEqual({ code: 0, stdout: '3 files scanned, 0 sites: 0 fixed, 0 manual, 0 errors (dry run: nothing written)\n', stderr: '' });
  });

  it('verification (on by default under a tsconfig.json) rolls back a rewrite that adds a TypeScript diagnostic and reports it manual', async () => {
    const dir = tempDir('fix-verify');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', lib: ['es2022'], types: [], noEmit: true } }));
    const source = [
      'declare function fetch(url: string): Promise<{ body: { getReader(): Reader } }>;',
      'interface Reader {',
      '  read(): Promise<{ done: boolean; value?: string }>;',
      '  cancel(): Promise<void>;',
      '}',
      'declare function setTimeout(callback: () => void, ms: number): number;',
      '',
      'export async function run(url: string): Promise<void> {',
      '  const res = await fetch(url);',
      '  const reader = res.body.getReader();',
      '  while (true) {',
      '    const { done, value } = await reader.read();',
      '    if (done) break;',
      "    if (value === '[DONE]') {",
      '      await reader.cancel();',
      '      break;',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'runtime.ts'), source);
    const result = await runCli(['fix', '--json'], dir);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { files: Array<{ changed: boolean; sites: Array<{ status: string; reason?: string }> }> };
    expect(report.files[0].changed).toBe(false);
    expect(report.files[0].sites[0].status).toBe('manual');
    // No timers in this project (no DOM, no Node types): the helper module the rewrite imports does not type-check.
    expect(report.files[0].sites[0].reason).toBe("rolled back: the helper module drain-body.ts does not type-check here: TS2304: Cannot find name 'setTimeout'.");
    expect(readFileSync(join(dir, 'runtime.ts'), 'utf8')).toBe(source);
    expect(readdirSync(dir).sort()).toEqual(['runtime.ts', 'tsconfig.json']);

    const withoutVerify = await runCli(['fix', '--no-verify', '--json'], dir);
    expect(withoutVerify.code).toBe(0);
    expect(readFileSync(join(dir, 'runtime.ts'), 'utf8')).toContain('      void drainReader(reader, () => reader.cancel());\n      break;\n');
  });

  it("verification type-checks with the project's own TypeScript where it has one, else with the one drainguard ships", async () => {
    const dir = tempDir('fix-verify-own');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', lib: ['es2022', 'dom', 'dom.asynciterable'], types: [], noEmit: true } }));
    const source = [
      'export async function run(url: string): Promise<void> {',
      '  const res = await fetch(url);',
      '  const reader = res.body!.getReader();',
      '  const decoder = new TextDecoder();',
      '  while (true) {',
      '    const { done, value } = await reader.read();',
      '    if (done) break;',
      "    if (decoder.decode(value).includes('[DONE]')) {",
      '      await reader.cancel();',
      '      break;',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'run.ts'), source);
    // The project's own `typescript`: the real compiler, except that it finds one more error in the rewritten run.ts.
    mkdirSync(join(dir, 'node_modules/typescript'), { recursive: true });
    writeFileSync(join(dir, 'node_modules/typescript/package.json'), JSON.stringify({ name: 'typescript', version: '0.0.0-project', main: 'index.js' }));
    writeFileSync(
      join(dir, 'node_modules/typescript/index.js'),
      [
        `const ts = require(${JSON.stringify(createRequire(import.meta.url).resolve('typescript'))});`,
        'const rewritten = (file) => file && file.fileName.endsWith("/run.ts") && file.text.includes("drainReader(");',
        'const extra = (file) => (rewritten(file) ? [{ category: 1, code: 9999, file, start: 0, length: 0, messageText: "the project\'s compiler says no" }] : []);',
        'module.exports = { ...ts, getPreEmitDiagnostics: (program, file) => [...ts.getPreEmitDiagnostics(program, file), ...extra(file)] };',
      ].join('\n'),
    );
    const own = await runCli(['fix', '--json'], dir);
    expect(own.code).toBe(1);
    const report = JSON.parse(own.stdout) as { files: Array<{ path: string; changed: boolean; sites: Array<{ status: string; reason?: string }> }> };
    expect(report.files.map((file) => [file.path, file.changed, file.sites])).toEqual([
      [join(dir, 'run.ts'), false, [{ line: 9, column: 13, status: 'manual', reason: "rolled back: the rewrite adds a TypeScript diagnostic: TS9999: the project's compiler says no" }]],
    ]);
    expect(readFileSync(join(dir, 'run.ts'), 'utf8')).toBe(source);

    rmSync(join(dir, 'node_modules'), { recursive: true });
    const shipped = await runCli(['fix', '--json'], dir);
    expect(shipped.code).toBe(0);
    expect(readFileSync(join(dir, 'run.ts'), 'utf8')).toContain('      void drainReader(reader, () => reader.cancel());\n      break;\n');
  });

  it('parses every file lint reports on: JSX in a .js file is fixed, not a parse error', async () => {
    const dir = tempDir('fix-jsx-js');
    const source = `${inputOf('02-js-while-reader-cancel-break', '.js')}export const view = <p>ok</p>;\n`;
    writeFileSync(join(dir, 'view.js'), source);
    const lint = await runCli(['lint', '--format', 'json'], dir);
    expect((JSON.parse(lint.stdout) as LintResultJson[])[0].messages.map((m) => [m.line, m.column])).toEqual([[11, 7]]);
    const result = await runCli(['fix', '--dry'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('view.js:11:7  fixed\n');
  });

  it('fixes a sloppy-mode script .js file that lint reports on (parsed again as a script, as lint does)', async () => {
    const dir = tempDir('fix-sloppy-js');
    const source = [
      'var config = { debug: false };',
      'with (config) { debug = true; }', // a syntax error in an ES module
      'module.exports = async function readUntilDone(res) {',
      '  const reader = res.body.getReader();',
      '  while (true) {',
      '    const { done, value } = await reader.read();',
      '    if (done) break;',
      "    if (new TextDecoder().decode(value).includes('[DONE]')) {",
      '      await reader.cancel();',
      '      break;',
      '    }',
      '  }',
      '};',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'legacy.js'), source);
    const lint = await runCli(['lint', '--format', 'json'], dir);
    expect((JSON.parse(lint.stdout) as LintResultJson[])[0].messages.map((m) => [m.line, m.column])).toEqual([[9, 13]]);
    const result = await runCli(['fix', '--force'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('legacy.js:9:13  fixed\n');
    // A script cannot import the helper module: it gets its own copy, before its code.
    const fixed = readFileSync(join(dir, 'legacy.js'), 'utf8');
    expect(fixed.endsWith(source.replace('      await reader.cancel();\n', '      void drainReader(reader, () => reader.cancel());\n'))).toBe(true);
    expect(fixed.startsWith('// Past these limits a drain gives up and closes as the code did (0: no limit).\nconst DRAIN_LIMITS = { timeoutMs: 1000, maxBytes: 128 * 1024 };\n')).toBe(true);
    expect(fixed).toContain('\nfunction drainReader(reader, close) {\n');
    expect(readdirSync(dir)).toEqual(['legacy.js']);
    const relint = await runCli(['lint', '--format', 'json'], dir);
    expect(relint.code).toBe(0);
    expect((JSON.parse(relint.stdout) as LintResultJson[])[0]).toMatchObject({ errorCount: 0, fatalErrorCount: 0 });
  });

  it('takes the rule options: --terminal-pattern adds a completion word the defaults lack, a bad pattern is a usage error', async () => {
    const dir = tempDir('fix-rule-options');
    const source = [
      'export async function run(url) {',
      '  const res = await fetch(url);',
      '  const reader = res.body.getReader();',
      '  while (true) {',
      '    const { done, value } = await reader.read();',
      '    if (done) break;',
      "    if (value.kind === 'eos') {",
      '      await reader.cancel();',
      '      break;',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'eos.js'), source);
    const defaults = await runCli(['fix', '--dry', '--json'], dir);
    expect(parseFixJson(defaults).summary.sitesFound).toBe(0);
    const custom = await runCli(['fix', '--dry', '--json', '--terminal-pattern', '^eos$'], dir);
    expect(custom.code).toBe(0);
    expect(fileReport(parseFixJson(custom), join(dir, 'eos.js')).sites).toEqual([{ line: 8, column: 13, status: 'fixed' }]);
    const bad = await runCli(['fix', '--dry', '--terminal-pattern', '(eos'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--terminal-pattern '(eos' is not a regular expression");
    const both = await runCli(['fix', '--dry', '--verify', '--no-verify'], dir);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--verify and --no-verify contradict each other.');
  });

  it('--types finds what lint --types finds: a stream known only by its type is fixed', async () => {
    const dir = tempDir('fix-types');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', lib: ['es2022', 'dom', 'dom.asynciterable'], noEmit: true, skipLibCheck: true }, include: ['*.ts'] }),
    );
    const source = [
      'declare function openStream(): ReadableStream<string>;',
      'export async function f(): Promise<void> {',
      '  const s = openStream();',
      '  for await (const chunk of s) {',
      "    if (chunk === '[DONE]') break;",
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'typed.ts'), source);
    const syntaxOnly = await runCli(['fix', '--dry', '--json'], dir);
    expect(parseFixJson(syntaxOnly).summary.sitesFound).toBe(0);
    const typed = await runCli(['fix', '--json', '--types'], dir);
    expect(typed.code).toBe(0);
    expect(fileReport(parseFixJson(typed), join(dir, 'typed.ts')).sites).toEqual([{ line: 5, column: 29, status: 'fixed' }]);
    expect(readFileSync(join(dir, 'typed.ts'), 'utf8')).toContain("  const events = drainableBody(s);\n  for await (const chunk of events) {\n    if (chunk === '[DONE]') {\n      events.drainInBackground();\n      break;\n    }\n");
  });

  it('--drain-timeout-ms 0 reports every fixed site as unbounded', async () => {
    const dir = tempDir('fix-unbounded');
    copyFixtureInput('02-js-while-reader-cancel-break', '.js', dir, 'a.js');
    const result = await runCli(['fix', '--dry', '--json', '--drain-timeout-ms', '0'], dir);
    expect(result.code).toBe(0);
    const [site] = fileReport(parseFixJson(result), join(dir, 'a.js')).sites;
    expect(site.status).toBe('fixed');
    expect(site.reason).toMatch(/^unbounded: --drain-timeout-ms 0 drains without a budget/);
  });

  it('usage errors exit 2: unknown flag, bad budget, missing path', async () => {
    const dir = tempDir('fix-usage');
    const unknown = await runCli(['fix', '--frobnicate'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--frobnicate'");
    const budget = await runCli(['fix', '--drain-timeout-ms', '-5'], dir);
    expect(budget.code).toBe(2);
    const budgetText = await runCli(['fix', '--drain-timeout-ms=soon'], dir);
    expect(budgetText.code).toBe(2);
    expect(budgetText.stderr).toContain("--drain-timeout-ms takes a whole number of milliseconds (0 = no budget, default 1000), got 'soon'.");
    const missing = await runCli(['fix', 'nope/'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('drainguard fix: no such file or directory: nope/\n');
  });
});
