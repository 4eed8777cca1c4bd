/**
 * `drainguard lint` runs the rule through oxlint's JS plugin host where it can and through ESLint in
 * process elsewhere, parsing natively with oxc-parser (DRAINGUARD_ENGINE=oxlint forces oxlint even on a
 * few small files, as here; DRAINGUARD_ENGINE=native uses the native parser in process everywhere;
 * DRAINGUARD_ENGINE=eslint uses ESLint with espree and typescript-eslint's parser, as before the native
 * parser). The output must be byte for byte the same:
 * positions in UTF-16 units after non-ASCII text, CRLF and U+2028 line breaks, files oxlint cannot
 * parse, lint directives, a byte order mark, sloppy-mode scripts, JSX, .cjs.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLY_CANCEL_JS, EARLY_CANCEL_TS, FOR_AWAIT_BREAK_JS, UNPARSABLE_JS } from '../../../cli/sources.js';
import { ROOT, parseJson, runCli, tempProject, type CliRun } from '../../../cli/helpers.js';

function fixtureFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const dir = path.join(ROOT, 'fixtures');
  for (const name of readdirSync(dir)) {
    for (const file of readdirSync(path.join(dir, name))) {
      const match = /^(input|output)(\.\w+)$/.exec(file);
      if (match) files[`fixtures/${name}-${match[1]}${match[2]}`] = readFileSync(path.join(dir, name, file), 'utf8');
    }
  }
  return files;
}

const TRICKY: Record<string, string> = {
  'tricky/non-ascii.ts': `// héllo wörld ✓ 𝄞\n${EARLY_CANCEL_TS.replace('await reader.cancel();', '/* ü */ await reader.cancel();')}`,
  'tricky/crlf.js': EARLY_CANCEL_JS.replace(/\n/g, '\r\n'),
  'tricky/line-separator.js': `const note = 'a\u2028b';\n${EARLY_CANCEL_JS}`,
  'tricky/bom.js': `\uFEFF${EARLY_CANCEL_JS}`,
  'tricky/disabled-line.js': EARLY_CANCEL_JS.replace('await reader.cancel();', 'await reader.cancel(); // eslint-disable-line drainguard/no-early-stream-close -- tested'),
  'tricky/disabled-file.js': `/* eslint-disable */\n${EARLY_CANCEL_JS}`,
  'tricky/other-rule-comment.mjs': `/* eslint some-plugin/some-rule: "error" */\n${FOR_AWAIT_BREAK_JS}`,
  // Directives that name only other rules: the file may go to oxlint, and the report stays.
  'tricky/other-rules-disabled.js': EARLY_CANCEL_JS.replace('await reader.cancel();', '// eslint-disable-next-line no-console -- drainguard is not named here\n      await reader.cancel(); // eslint-disable-line no-underscore-dangle'),
  // Only oxlint reads oxlint's directives: ESLint reports the close, so must drainguard through either engine.
  'tricky/oxlint-directive.js': EARLY_CANCEL_JS.replace('await reader.cancel();', '// oxlint-disable-next-line drainguard/no-early-stream-close\n      await reader.cancel();'),
  'tricky/broken.js': UNPARSABLE_JS,
  'tricky/sloppy-script.js': `var octal = 010;\nwith (Math) { octal = max(octal, 1); }\n${EARLY_CANCEL_JS.replace('export ', '')}`,
  'tricky/common.cjs': `'use strict';\n${EARLY_CANCEL_JS.replace('export async function', 'module.exports = async function')}`,
  'tricky/component.jsx': `export const Button = () => <button onClick={() => reader.cancel()}>stop</button>;\n${EARLY_CANCEL_JS}`,
  'tricky/top-level-return.js': `if (!globalThis.fetch) return;\n${EARLY_CANCEL_JS.replace('export ', '')}`,
  // oxlint skips files named as minified without a word: they go to ESLint, and their report stays.
  'tricky/bundle.min.js': EARLY_CANCEL_JS,
  'tricky/bundle_min.mjs': EARLY_CANCEL_JS,
};

/** The run through each engine; the native one must print what ESLint with the usual parsers prints. */
/** Three CLI runs per case: on a loaded 2-core machine one case can take minutes. */
const ENGINE_RUNS_TIMEOUT_MS = 300_000;

async function bothEngines(args: string[], dir: string, env: Record<string, string> = {}): Promise<{ oxlint: CliRun; eslint: CliRun }> {
  const oxlint = await runCli(args, dir, { ...env, DRAINGUARD_ENGINE: 'oxlint' });
  const eslint = await runCli(args, dir, { ...env, DRAINGUARD_ENGINE: 'eslint' });
  expect(await runCli(args, dir, { ...env, DRAINGUARD_ENGINE: 'native' }), 'native').toEqual(eslint);
  return { oxlint, eslint };
}

describe('drainguard lint through oxlint and through ESLint', () => {
  it('prints the same JSON on every fixture, example and tricky file', async () => {
    const examples = Object.fromEntries(
      readdirSync(path.join(ROOT, 'examples')).map((name) => [`examples/${name}`, readFileSync(path.join(ROOT, 'examples', name), 'utf8')]),
    );
    const dir = tempProject({ ...fixtureFiles(), ...examples, ...TRICKY });
    const { oxlint, eslint } = await bothEngines(['lint', '--format', 'json'], dir);
    expect(oxlint.code).toBe(1);
    expect(oxlint.stderr).toBe('');
    expect(oxlint.stdout).toBe(eslint.stdout);
    expect(oxlint.code).toBe(eslint.code);

    const results = parseJson(oxlint);
    const reports = results.flatMap((result) => result.messages.filter((message) => !message.fatal));
    expect(reports.length).toBeGreaterThan(40);
    const positionsIn = (file: string) =>
      results.find((result) => result.filePath === path.join(dir, file))!.messages.map(({ line, column, endLine, endColumn, fatal }) => ({ line, column, endLine, endColumn, fatal }));
    // Counted from the texts: `/* ü */ ` moves the close 8 UTF-16 units right; one line more above it.
    expect(positionsIn('tricky/non-ascii.ts')).toEqual([{ line: 10, column: 21, endLine: 10, endColumn: 36, fatal: undefined }]);
    expect(positionsIn('tricky/line-separator.js')).toEqual([{ line: 11, column: 13, endLine: 11, endColumn: 28, fatal: undefined }]);
    expect(positionsIn('tricky/disabled-line.js')).toEqual([]);
    expect(positionsIn('tricky/bundle.min.js')).toEqual(positionsIn('tricky/crlf.js'));
    expect(positionsIn('tricky/bundle_min.mjs')).toEqual(positionsIn('tricky/crlf.js'));
    expect(positionsIn('tricky/broken.js')).toEqual([expect.objectContaining({ fatal: true })]);
  }, ENGINE_RUNS_TIMEOUT_MS);

  it('prints the same stylish report and summary, and the same without the pre-filter', async () => {
    const dir = tempProject({ ...TRICKY, 'clean.js': 'export const add = (a, b) => a + b;\n' });
    const stylish = await bothEngines(['lint'], dir);
    expect(stylish.oxlint).toEqual(stylish.eslint);
    expect(stylish.oxlint.stderr).toBe('drainguard lint: 17 files found, 16 parsed, 13 early closes, 1 file that does not parse.\nnext: drainguard fix rewrites them where you maintain the code; for an SDK you only call, drainguard/undici (Node) and drainguard-httpx (Python) keep its connections with no source change\n');

    const everything = await bothEngines(['lint', '--format', 'json'], dir, { DRAINGUARD_NO_PREFILTER: '1' });
    expect(everything.oxlint).toEqual(everything.eslint);
  }, ENGINE_RUNS_TIMEOUT_MS);

  it('prints the same SARIF, end positions included (oxlint reports are used as they are: SARIF shows no suggestions)', async () => {
    const dir = tempProject({ ...fixtureFiles(), ...TRICKY });
    const sarif = await bothEngines(['lint', '--format', 'sarif'], dir);
    expect(sarif.oxlint.code).toBe(1);
    expect(sarif.oxlint.stdout).toBe(sarif.eslint.stdout);
    expect(sarif.oxlint.stdout).toContain('"endColumn": 36'); // non-ascii.ts, counted in UTF-16 units
  }, ENGINE_RUNS_TIMEOUT_MS);

  it('lets ESLint lint the files of an oxlint process killed at its time limit: the same output', async () => {
    // Files oxlint takes, every one (no directive, no byte order mark, all parse).
    const dir = tempProject({
      'stream.js': EARLY_CANCEL_JS,
      'stream.ts': EARLY_CANCEL_TS,
      'events.mjs': FOR_AWAIT_BREAK_JS,
      'non-ascii.ts': TRICKY['tricky/non-ascii.ts'],
      'clean.js': 'export const add = (a, b) => a + b;\n',
    });
    // 1 ms: every oxlint process is killed before it can answer. The preload records the packages the
    // CLI loaded: ESLint only if it linted what oxlint was given (a json run through oxlint loads none).
    const record = path.join(dir, 'loaded.json');
    const preload = { NODE_OPTIONS: `--require ${path.join(ROOT, 'test/support/report-loaded.cjs')}`, DRAINGUARD_LOADED_FILE: record };
    const killed = await runCli(['lint', '--format', 'json'], dir, { ...preload, DRAINGUARD_ENGINE: 'oxlint', DRAINGUARD_OXLINT_TIMEOUT_MS: '1' });
    expect(JSON.parse(readFileSync(record, 'utf8'))).toContain('eslint');
    const eslint = await runCli(['lint', '--format', 'json'], dir, { DRAINGUARD_ENGINE: 'eslint' });
    expect(killed).toEqual(eslint);
    expect(parseJson(killed).flatMap((result) => result.messages)).toHaveLength(4);
  });

  it('refuses an unknown DRAINGUARD_ENGINE (exit 2), linting nothing', async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });
    const run = await runCli(['lint'], dir, { DRAINGUARD_ENGINE: 'biome' });
    expect(run).toEqual({ code: 2, stdout: '', stderr: "drainguard lint: DRAINGUARD_ENGINE must be one of auto, native, eslint, oxlint, got 'biome'.\n" });
  });
});
