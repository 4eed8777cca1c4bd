import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { FIXTURES, copyFixtureInput, runCli, tempDir } from './run-cli.js';
import { parseFixJson, type LintResultJson } from '../cli/helpers.js';

const expectedOutput = (name: string, ext: string): string => readFileSync(join(FIXTURES, name, `output${ext}`), 'utf8');
const inputOf = (name: string, ext: string): string => readFileSync(join(FIXTURES, name, `input${ext}`), 'utf8');

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
    summary: {
      type: 'object',
      required: ['filesScanned', 'sitesFound', 'fixed', 'manual', 'errors'],
      additionalProperties: false,
      properties: Object.fromEntries(['filesScanned', 'sitesFound', 'fixed', 'manual', 'errors'].map((key) => [key, { type: 'integer', minimum: 0 }])),
    },
  },
} as const;

describe('drainguard fix', () => {
  it('rewrites a file in a clean git work tree and exits 0', async () => {
    const dir = gitRepoWith([['01-ts-while-reader-cancel-return', '.ts', 'client.ts']]);
    const result = await runCli(['fix'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts'));
    expect(result.stdout).toBe('client.ts:11:13  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n');
  });

  it('refuses on a dirty work tree, changes nothing, and names --force', async () => {
    const dir = gitRepoWith([
      ['01-ts-while-reader-cancel-return', '.ts', 'client.ts'],
      ['02-js-while-reader-cancel-break', '.js', 'other.js'],
    ]);
    writeFileSync(join(dir, 'other.js'), `${inputOf('02-js-while-reader-cancel-break', '.js')}// local edit\n`);
    const result = await runCli(['fix', '.'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('uncommitted changes');
    expect(result.stderr).toContain('--force');
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(inputOf('01-ts-while-reader-cancel-return', '.ts'));
    expect(git(dir, 'status', '--porcelain')).toBe(' M other.js\n');
  });

  it('--force rewrites a dirty work tree', async () => {
    const dir = gitRepoWith([['01-ts-while-reader-cancel-return', '.ts', 'client.ts']]);
    writeFileSync(join(dir, 'client.ts'), inputOf('01-ts-while-reader-cancel-return', '.ts'));
    writeFileSync(join(dir, 'README'), 'dirty\n');
    git(dir, 'add', 'README');
    const result = await runCli(['fix', '--force'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts'));
  });

  it('--dry writes nothing (also on a dirty tree) and --print shows a unified diff', async () => {
    const dir = gitRepoWith([['16-ts-budget-custom', '.ts', 'budget.ts']]);
    writeFileSync(join(dir, 'untracked-change.ts'), 'export {};\n');
    git(dir, 'add', 'untracked-change.ts');
    const result = await runCli(['fix', '--dry', '--print', '--drain-timeout-ms', '2500', 'budget.ts'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'budget.ts'), 'utf8')).toBe(inputOf('16-ts-budget-custom', '.ts'));
    expect(result.stdout).toContain('--- a/budget.ts\n+++ b/budget.ts\n@@ -6,10 +6,28 @@\n');
    expect(result.stdout).toContain('-      await reader.cancel();\n+      void drainReader(reader, 2500);\n');
    expect(result.stdout).toContain('+async function drainReader(reader: { read(): Promise<{ done?: boolean }>; cancel(): Promise<unknown> }, budgetMs: number): Promise<void> {\n');
    expect(result.stderr).toContain('(dry run: nothing written)'); // with --print, stdout holds only the diffs
    expect(result.stdout).not.toContain('\u001b[');
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
      [join(dir, 'a.ts'), true],
      [join(dir, 'b.ts'), false],
    ]);
    expect(report.files[1].sites).toEqual([{ line: 8, column: 14, status: 'manual', reason: 'the close is used as a value, not as a statement of its own' }]);
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
    expect(readdirSync(dir).sort()).toEqual(['locked.js', 'open.ts']);
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
    expect(report.files[0].sites[0].reason).toBe("rolled back: the rewrite adds a TypeScript diagnostic: TS2304: Cannot find name 'clearTimeout'.");
    expect(readFileSync(join(dir, 'runtime.ts'), 'utf8')).toBe(source);

    const withoutVerify = await runCli(['fix', '--no-verify', '--json'], dir);
    expect(withoutVerify.code).toBe(0);
    expect(readFileSync(join(dir, 'runtime.ts'), 'utf8')).toContain('      void drainReader(reader, 1000);\n      break;\n');
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
    const fixed = readFileSync(join(dir, 'legacy.js'), 'utf8');
    expect(fixed.startsWith(source.replace('      await reader.cancel();\n', '      void drainReader(reader, 1000);\n'))).toBe(true);
    expect(fixed).toContain('\nasync function drainReader(reader, budgetMs) {\n');
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
    expect(parseFixJson(custom).files[0].sites).toEqual([{ line: 8, column: 13, status: 'fixed' }]);
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
    expect(parseFixJson(typed).files[0].sites).toEqual([{ line: 5, column: 29, status: 'fixed' }]);
    expect(readFileSync(join(dir, 'typed.ts'), 'utf8')).toContain("  const events = drainable(s, 1000);\n  for await (const chunk of events) {\n    if (chunk === '[DONE]') {\n      events.drainInBackground();\n      break;\n    }\n");
  });

  it('--drain-timeout-ms 0 reports every fixed site as unbounded', async () => {
    const dir = tempDir('fix-unbounded');
    copyFixtureInput('02-js-while-reader-cancel-break', '.js', dir, 'a.js');
    const result = await runCli(['fix', '--dry', '--json', '--drain-timeout-ms', '0'], dir);
    expect(result.code).toBe(0);
    const [site] = parseFixJson(result).files[0].sites;
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
    expect(budgetText.stderr).toContain("--drain-timeout-ms takes a whole number of milliseconds (0 = no budget), got 'soon'.");
    const missing = await runCli(['fix', 'nope/'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('drainguard fix: no such file or directory: nope/\n');
  });
});
