/**
 * `drainguard lint` loads what a run needs: the TypeScript compiler (through typescript-eslint's
 * parser) only when a TypeScript file does not parse natively (its error message is typescript-eslint's)
 * or `--types` asks for types (oxc-parser in process and oxlint parse TypeScript natively),
 * node-sarif-builder only for `--format sarif`, and the codemod's writer never. A pre-commit hook
 * pays for none of them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLY_CANCEL_JS, EARLY_CANCEL_TS } from '../../../cli/sources.js';
import { CLI, ROOT, parseJson, runCli, tempProject } from '../../../cli/helpers.js';

const PRELOAD = path.join(ROOT, 'test/support/report-loaded.cjs');
const WATCHED = ['@typescript-eslint/parser', 'typescript', 'node-sarif-builder', 'write-file-atomic'];

/** Every CommonJS package a CLI run loaded, and its exit code. */
async function allLoadedBy(args: string[], files: Record<string, string>, env: Record<string, string> = {}): Promise<{ code: number; all: string[] }> {
  const dir = tempProject(files);
  const record = path.join(dir, 'loaded.json');
  // The CLI exits after any oxlint child (which inherits the preload), so the record is the CLI's.
  const run = await runCli(args, dir, { NODE_OPTIONS: `--require ${PRELOAD}`, DRAINGUARD_LOADED_FILE: record, ...env });
  return { code: run.code, all: JSON.parse(readFileSync(record, 'utf8')) as string[] };
}

/** The watched CommonJS packages a CLI run loaded (one that also loads ESLint), and its exit code. */
async function loadedBy(args: string[], files: Record<string, string>, env: Record<string, string> = {}): Promise<{ code: number; loaded: string[] }> {
  const { code, all } = await allLoadedBy(args, files, env);
  expect(all, 'the preload saw ESLint itself').toContain('eslint');
  return { code, loaded: all.filter((name) => WATCHED.includes(name)) };
}

describe('what drainguard lint loads', () => {
  it('loads none of them for JavaScript files, stylish output', async () => {
    expect(await loadedBy(['lint', 'client.js'], { 'client.js': EARLY_CANCEL_JS })).toEqual({ code: 1, loaded: [] });
  });

  it('loads neither for a TypeScript file linted in process (a small file: no oxlint process)', async () => {
    expect(await loadedBy(['lint', 'client.ts'], { 'client.ts': EARLY_CANCEL_TS })).toEqual({ code: 1, loaded: [] });
  });

  it('loads the TypeScript parser and compiler for a TypeScript file that does not parse natively, and with the usual parsers', async () => {
    const broken = { 'broken.ts': 'const x: = 1;\nreader.cancel();\n' };
    expect(await loadedBy(['lint', 'broken.ts'], broken)).toEqual({ code: 1, loaded: ['@typescript-eslint/parser', 'typescript'] });
    expect(await loadedBy(['lint', 'client.ts'], { 'client.ts': EARLY_CANCEL_TS }, { DRAINGUARD_ENGINE: 'eslint' })).toEqual({
      code: 1,
      loaded: ['@typescript-eslint/parser', 'typescript'],
    });
  });

  it('loads neither for a TypeScript file that oxlint lints (it parses TypeScript itself)', async () => {
    expect(await loadedBy(['lint', 'client.ts'], { 'client.ts': EARLY_CANCEL_TS }, { DRAINGUARD_ENGINE: 'oxlint' })).toEqual({ code: 1, loaded: [] });
  });

  it('checks a TypeScript suggestion in the oxlint process without the TypeScript compiler (oxc-parser accepts the rewrite)', async () => {
    const dir = tempProject({ 'client.ts': EARLY_CANCEL_TS });
    const log = path.join(dir, 'loaded.jsonl');
    const run = await runCli(['lint', '--format', 'json', 'client.ts'], dir, { NODE_OPTIONS: `--require ${PRELOAD}`, DRAINGUARD_LOADED_LOG: log, DRAINGUARD_ENGINE: 'oxlint' });
    const [result] = parseJson(run);
    expect(result.messages.map((message) => (message as { suggestions?: unknown[] }).suggestions?.length)).toEqual([1]);
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { script: string; loaded: string[] });
    const watchedBy = (cli: boolean): string[][] => records.filter((record) => (record.script === CLI) === cli).map((record) => record.loaded.filter((name) => WATCHED.includes(name) || name === 'eslint'));
    // The suggestion is oxlint's record: the CLI loaded no ESLint to lint the file again.
    expect(watchedBy(true)).toEqual([[]]);
    expect(watchedBy(false)).toEqual([[]]);
  });

  it('lets oxlint lint when there is enough to parse, also without being told', async () => {
    // About 350 KB of TypeScript with a close: above the size where starting oxlint pays off.
    const lines = Array.from({ length: 6000 }, (_, index) => `export const doubled${index} = [1, 2, 3].map((n) => n * 2);\n`);
    const big = `${EARLY_CANCEL_TS}${lines.join('')}`;
    expect(await loadedBy(['lint', 'client.ts'], { 'client.ts': big })).toEqual({ code: 1, loaded: [] });
  });

  it('chooses the engine by cost: about 150 KB to parse go to oxlint, about 60 KB stay in process', async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `export const doubled${index} = [1, 2, 3].map((n) => n * 2);\n`).join('');
    // 150 KB: an oxlint process (0.3 s to start) costs less than ESLint's start and 150 KB in process.
    // (json output: a stylish report with a problem in it would load ESLint for its formatter.)
    const big = await allLoadedBy(['lint', '--format', 'json', 'client.js'], { 'client.js': `${EARLY_CANCEL_JS}${lines(2600)}` });
    expect(big).toEqual({ code: 1, all: expect.not.arrayContaining(['eslint']) as string[] });
    // 60 KB: in process.
    expect(await loadedBy(['lint', 'client.js'], { 'client.js': `${EARLY_CANCEL_JS}${lines(1000)}` })).toEqual({ code: 1, loaded: [] });
  });

  it('hands oxlint a for-await file only a parse could rule out, unchecked; checks it here if it is kept here', async () => {
    const lines = Array.from({ length: 2600 }, (_, index) => `export const doubled${index} = [1, 2, 3].map((n) => n * 2);\n`).join('');
    // The loop with a break is in a template string: a parse rules the file out.
    const snippet = 'export const snippet = `for await (const chunk of stream) { if (chunk.done) break; }`;\nexport async function f(res) { for await (const c of res.body) { c; } }\n';
    const files = { 'client.js': `${EARLY_CANCEL_JS}${lines}`, 'snippet.js': snippet };
    // (json output: a stylish report with a problem in it would load ESLint, and its parser, for the formatter.)
    const oxlint = await allLoadedBy(['lint', '--format', 'json', '.'], files, { DRAINGUARD_ENGINE: 'oxlint' });
    expect(oxlint.code).toBe(1);
    expect(oxlint.all.filter((name) => name.startsWith('@oxc-parser/'))).toEqual([]);
    const dir = tempProject(files);
    const summary = async (env: Record<string, string>): Promise<string> => (await runCli(['lint', '.'], dir, env)).stderr.trim().split('\n').at(-2)!;
    expect(await summary({ DRAINGUARD_ENGINE: 'oxlint' })).toBe('drainguard lint: 2 files found, 2 parsed, 1 early close.');
    // Engine auto keeps the small file here, beside one oxlint process for the big one: the check rules it out here.
    expect(await summary({})).toBe('drainguard lint: 2 files found, 1 parsed, 1 early close.');
    expect(await summary({ DRAINGUARD_ENGINE: 'native' })).toBe('drainguard lint: 2 files found, 1 parsed, 1 early close.');
  });

  it('does not load the TypeScript parser for a TypeScript file the pre-filter skips', async () => {
    expect(await loadedBy(['lint', '.'], { 'client.js': EARLY_CANCEL_JS, 'math.ts': 'export const add = (a: number, b: number): number => a + b;\n' })).toEqual({
      code: 1,
      loaded: [],
    });
  });

  it('does not load ESLint at all when oxlint lints every file parsed: json output, or stylish with nothing to show', async () => {
    const files = { 'client.js': EARLY_CANCEL_JS, 'notes.js': `// eslint-disable-next-line no-console\nconsole.log(reader.cancel);\n` };
    const json = await allLoadedBy(['lint', '--format', 'json', '.'], files, { DRAINGUARD_ENGINE: 'oxlint' });
    expect(json.code).toBe(1);
    expect(json.all).not.toContain('eslint');
    const clean = await allLoadedBy(['lint', 'notes.js'], files, { DRAINGUARD_ENGINE: 'oxlint' });
    expect(clean).toEqual({ code: 0, all: expect.not.arrayContaining(['eslint']) as string[] });
  });

  it('loads node-sarif-builder for --format sarif only', async () => {
    expect(await loadedBy(['lint', '--format', 'sarif', 'client.js'], { 'client.js': EARLY_CANCEL_JS })).toEqual({
      code: 1,
      loaded: ['node-sarif-builder'],
    });
  });
});
