import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, copyFixtureInput, runCli, tempDir } from './run-cli.js';
import { parseFixJson } from '../../../cli/helpers.js';

const expectedOutput = (name: string, ext: string): string => readFileSync(join(FIXTURES, name, `output${ext}`), 'utf8');
const expectedHelper = (name: string, ext: string): string => readFileSync(join(FIXTURES, name, `drain-body${ext}`), 'utf8');

describe('drainguard fix: the helper module', () => {
  it('--helper-path puts it where it says, and every site imports it from there', async () => {
    const dir = tempDir('fix-helper-path');
    copyFixtureInput('01-ts-while-reader-cancel-return', '.ts', dir, 'src/client.ts');
    const result = await runCli(['fix', '--helper-path', 'src/lib/drain', 'src'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'src/lib/drain.ts  helper module created\nsrc/lib/drain.test.ts  test of the helper module created (node:test)\nsrc/client.ts:11:13  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n',
    );
    expect(readFileSync(join(dir, 'src/client.ts'), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts').replace("from './drain-body.js'", "from './lib/drain.js'"));
    expect(readFileSync(join(dir, 'src/lib/drain.ts'), 'utf8')).toBe(expectedHelper('01-ts-while-reader-cancel-return', '.ts'));
  });

  it('gives each package its own module (its files cannot import across packages), beside the files that change', async () => {
    const dir = tempDir('fix-helper-packages');
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    for (const name of ['a', 'b']) {
      mkdirSync(join(dir, `packages/${name}`), { recursive: true });
      writeFileSync(join(dir, `packages/${name}/package.json`), `{ "name": "${name}" }\n`);
      copyFixtureInput('01-ts-while-reader-cancel-return', '.ts', dir, `packages/${name}/src/client.ts`);
    }
    const result = await runCli(['fix', 'packages'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const name of ['a', 'b']) {
      expect(readFileSync(join(dir, `packages/${name}/src/client.ts`), 'utf8')).toBe(expectedOutput('01-ts-while-reader-cancel-return', '.ts'));
      expect(readFileSync(join(dir, `packages/${name}/src/drain-body.ts`), 'utf8')).toBe(expectedHelper('01-ts-while-reader-cancel-return', '.ts'));
    }
  });

  it('--helper-path naming a file drainguard did not write is a refusal (exit 2), and nothing changes', async () => {
    const dir = tempDir('fix-helper-foreign');
    const client = copyFixtureInput('01-ts-while-reader-cancel-return', '.ts', dir, 'client.ts');
    writeFileSync(join(dir, 'util.ts'), 'export const answer = 42;\n');
    const result = await runCli(['fix', '--helper-path', 'util.ts', 'client.ts'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'drainguard fix: --helper-path util.ts: util.ts exists and is not a helper module drainguard fix wrote (it declares no DRAIN_LIMITS); name another file.\n',
    );
    expect(readFileSync(client, 'utf8')).toBe(readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'input.ts'), 'utf8'));
  });

  it('a JavaScript-only run writes a JavaScript module; explicit bounds are written into it', async () => {
    const dir = tempDir('fix-helper-js');
    copyFixtureInput('02-js-while-reader-cancel-break', '.js', dir, 'client.js');
    const result = await runCli(['fix', '--drain-timeout-ms', '250', '--drain-max-bytes', '4096', '--json'], dir);
    expect(result.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['client.js', 'drain-body.js', 'drain-body.test.js']);
    const module = readFileSync(join(dir, 'drain-body.js'), 'utf8');
    expect(module.split('\n').slice(0, 2)).toEqual([
      '// Past these limits a drain gives up and closes as the code did (0: no limit).',
      'export const DRAIN_LIMITS = { timeoutMs: 250, maxBytes: 4 * 1024 };',
    ]);
    expect(module).toContain('\nexport function drainReader(reader, close) {\n');
    expect(parseFixJson(result).files[0]).toEqual({ path: join(dir, 'drain-body.js'), changed: true, sites: [], helper: 'created' });
  });

  it('formats the touched lines with the repository\'s own formatter (prettier, installed and configured there)', async () => {
    const dir = tempDir('fix-prettier');
    writeFileSync(join(dir, '.prettierrc'), '{ "singleQuote": true }\n');
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), join(dir, 'node_modules/.bin/prettier'));
    const source = [
      'export async function first(url: string): Promise<string[]> {',
      '  const controller = new AbortController();',
      '  const res = await fetch(url, { signal: controller.signal });',
      '  const out: string[] = [];',
      '  for await (const chunk of res.body!) {',
      '    const text = new TextDecoder().decode(chunk);',
      "    if (text === '[DONE]') break;",
      '    out.push(text);',
      '  }',
      '  return out;',
      '}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'client.ts'), source);
    const result = await runCli(['fix', '--no-verify', 'client.ts'], dir);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(
      [
        "import { drainBodyChunks, drainable } from './drain-body.js';",
        '',
        'export async function first(url: string): Promise<string[]> {',
        '  const controller = new AbortController();',
        '  const res = await fetch(url, { signal: controller.signal });',
        '  const out: string[] = [];',
        '  const events = drainable(res.body!, (rest) =>',
        '    drainBodyChunks(rest, () => controller.abort()),',
        '  );',
        '  for await (const chunk of events) {',
        '    const text = new TextDecoder().decode(chunk);',
        "    if (text === '[DONE]') {",
        '      events.drainInBackground();',
        '      break;',
        '    }',
        '    out.push(text);',
        '  }',
        '  return out;',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('names a file a generator owns: the site is fixed, and its report says the template needs the fix too', async () => {
    const dir = tempDir('fix-generated');
    writeFileSync(join(dir, '.fernignore'), '# Specify files that should not be modified by Fern\nsrc/kept.ts\n');
    copyFixtureInput('01-ts-while-reader-cancel-return', '.ts', dir, 'src/core/stream.ts');
    copyFixtureInput('03-ts-for-ever-reader', '.ts', dir, 'src/kept.ts');
    const result = await runCli(['fix', '--json', 'src'], dir);
    expect(result.code).toBe(0);
    const sites = Object.fromEntries(parseFixJson(result).files.map((file) => [file.path.slice(dir.length + 1), file.sites]));
    const keepHelper = "the helper module src/drain-body.ts it imports is not the generator's: list it in .fernignore, or a regeneration deletes it";
    expect(sites['src/core/stream.ts']).toEqual([
      {
        line: 11,
        column: 13,
        status: 'fixed',
        reason: `generated by Fern: the generator's template needs the same fix, or the next regeneration undoes it (or list the file in .fernignore); ${keepHelper}`,
      },
    ]);
    // A file kept by hand needs the helper module it now imports kept too.
    expect(sites['src/kept.ts']).toEqual([{ line: 9, column: 13, status: 'fixed', reason: keepHelper }]);
  });

  it('says nothing about a helper module the generator\'s ignore file lists already (its folder, here)', async () => {
    const dir = tempDir('fix-generated-kept-helper');
    writeFileSync(join(dir, '.fernignore'), 'src/kept.ts\nsrc/wrapper/\n');
    copyFixtureInput('03-ts-for-ever-reader', '.ts', dir, 'src/kept.ts');
    mkdirSync(join(dir, 'src/wrapper'));
    const result = await runCli(['fix', '--json', '--helper-path', 'src/wrapper', 'src'], dir);
    expect(result.code).toBe(0);
    const files = parseFixJson(result).files.map((file) => [file.path.slice(dir.length + 1), file.sites]);
    expect(files).toEqual([
      ['src/wrapper/drain-body.ts', []],
      ['src/wrapper/drain-body.test.ts', []],
      ['src/kept.ts', [{ line: 9, column: 13, status: 'fixed' }]],
    ]);
  });
});
