import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, copyFixtureInput, runCli, tempDir } from './run-cli.js';
import { parseFixJson } from '../../../cli/helpers.js';

// A formatter configuration `fix` cannot run is a reported problem (which file, why, what to run), and the text is
// laid out from what the configuration states and the file shows, never from a formatter's defaults.

const FIXTURE = '01-ts-while-reader-cancel-return';
const expectedOutput = readFileSync(join(FIXTURES, FIXTURE, 'output.ts'), 'utf8');
const expectedHelper = readFileSync(join(FIXTURES, FIXTURE, 'drain-body.ts'), 'utf8');

/** A project with the fixture's client and prettier installed (drainguard's own, linked as a repository installs it). */
function prettierProject(prefix: string, config: string): string {
  const dir = tempDir(prefix);
  writeFileSync(join(dir, '.prettierrc'), config);
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), join(dir, 'node_modules/.bin/prettier'));
  copyFixtureInput(FIXTURE, '.ts', dir, 'src/client.ts');
  return dir;
}

describe('drainguard fix: a formatter that cannot run', () => {
  it('a .prettierrc with a syntax error: reported with the file, prettier\'s own words and the command, in the human report', async () => {
    const dir = prettierProject('fix-prettierrc-broken', '{ "semi": false,, }\n');
    // FORCE_COLOR (as CI runners set it) colours prettier's message; the report carries its words only.
    const result = await runCli(['fix', '--no-verify', 'src'], dir, { FORCE_COLOR: '1' });
    expect(result).toEqual({
      code: 0,
      stdout:
        'src/drain-body.ts  helper module created\n' +
        'src/drain-body.test.ts  test of the helper module created (node:test)\n' +
        'src/client.ts:11:13  fixed\n' +
        `.prettierrc  not formatted: prettier cannot load its configuration: Invalid configuration for file "src/client.ts": YAML Error in ".prettierrc": Unexpected , in flow map at line 1, column 17: { "semi": false,, }; ` +
        "3 written files laid out as drainguard writes them (the settings the configuration states, else the file's own style): " +
        "run the repository's formatter on them: node_modules/.bin/prettier --write src/drain-body.ts src/drain-body.test.ts src/client.ts\n" +
        '1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n',
      stderr: '',
    });
    // What the configuration states holds where drainguard writes a statement of its own (the import, without `;`).
    expect(readFileSync(join(dir, 'src/client.ts'), 'utf8')).toBe(expectedOutput.replace("from './drain-body.js';\n", "from './drain-body.js'\n"));
  });

  it('a plugin that is not installed: reported in --json, under "formatting"', async () => {
    const dir = prettierProject('fix-prettier-plugin', '{ "plugins": ["prettier-plugin-not-installed"] }\n');
    const result = await runCli(['fix', '--no-verify', '--json', 'src'], dir, { FORCE_COLOR: '1' });
    expect(result.code).toBe(0);
    const report = parseFixJson(result) as ReturnType<typeof parseFixJson> & { formatting: unknown[] };
    expect(report.formatting).toEqual([
      {
        formatter: 'prettier',
        config: join(dir, '.prettierrc'),
        reason: `prettier cannot load its configuration: ${join(dir, 'src/client.ts')}: Error: Cannot find package 'prettier-plugin-not-installed' imported from ${join(dir, 'noop.js')}`,
        files: [join(dir, 'src/drain-body.ts'), join(dir, 'src/drain-body.test.ts'), join(dir, 'src/client.ts')],
        run: 'node_modules/.bin/prettier --write src/drain-body.ts src/drain-body.test.ts src/client.ts',
      },
    ]);
    expect(readFileSync(join(dir, 'src/client.ts'), 'utf8')).toBe(expectedOutput);
    expect(readFileSync(join(dir, 'src/drain-body.ts'), 'utf8')).toBe(expectedHelper);
  });

  it('a configured formatter that is not installed: reported, with npx', async () => {
    const dir = tempDir('fix-prettier-absent');
    writeFileSync(join(dir, 'package.json'), '{ "prettier": { "singleQuote": true } }\n');
    copyFixtureInput(FIXTURE, '.ts', dir, 'client.ts');
    const result = await runCli(['fix', '--no-verify', '--dry', '.'], dir);
    expect(result.stdout).toBe(
      'drain-body.ts  helper module created (not written)\n' +
        'drain-body.test.ts  test of the helper module created (node:test) (not written)\n' +
        'client.ts:11:13  fixed\n' +
        'package.json  not formatted: prettier is not installed here (no node_modules/.bin/prettier); ' +
        "3 changed files laid out as drainguard writes them (the settings the configuration states, else the file's own style): " +
        "run the repository's formatter on them: npx prettier --write drain-body.ts drain-body.test.ts client.ts\n" +
        '1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors (dry run: nothing written)\n',
    );
  });

  it('a configuration that loads: the rewrite is formatted with it and nothing is reported', async () => {
    const dir = prettierProject('fix-prettierrc-good', '{ "singleQuote": true }\n');
    // FORCE_COLOR (as CI runners set it) colours prettier's message; the report carries its words only.
    const result = await runCli(['fix', '--no-verify', 'src'], dir, { FORCE_COLOR: '1' });
    expect(result).toEqual({
      code: 0,
      stdout: 'src/drain-body.ts  helper module created\nsrc/drain-body.test.ts  test of the helper module created (node:test)\nsrc/client.ts:11:13  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n',
      stderr: '',
    });
    expect(readFileSync(join(dir, 'src/client.ts'), 'utf8')).toBe(expectedOutput);
  });
});
