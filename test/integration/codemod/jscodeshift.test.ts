import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../codemod/fixture-cases.js';
import { helperModuleText } from '../../../rules/fix/helper-module.js';
import type { PieceName } from '../../../rules/fix/helpers.js';
import { detectStyle } from '../../../rules/fix/style.js';
import { drainBounds } from '../../../rules/contract/drain-options.js';

const ALL_PIECES: PieceName[] = ['drainReader', 'drainBodyChunks', 'drainMessages', 'drainIterator', 'drainable', 'drainableBody', 'tapBody', 'tapResponse', 'drainNodeStream'];

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const jscodeshift = join(root, 'node_modules/jscodeshift/bin/jscodeshift.js');
const transform = join(root, 'dist/codemod.cjs');
const fixtures = loadFixtures();
const work = mkdtempSync(join(tmpdir(), 'drainguard-jscodeshift-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function runJscodeshift(dir: string, ...extra: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [jscodeshift, '-t', transform, '--parser=tsx', '--extensions=js,jsx,mjs,cjs,ts,tsx,mts,cts', ...extra, dir],
    // jscodeshift colours its summary when FORCE_COLOR or a CI variable says so; the assertions read plain text.
    { cwd: dir, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } },
  );
  return stdout;
}

describe('the transform under the real jscodeshift CLI', () => {
  it('imports the helper module an earlier fix wrote: every fixture to its expected output, manual ones and clean files byte-identical', async () => {
    const dir = mkdtempSync(join(work, 'default-'));
    const cases = fixtures.filter((fixture) => fixture.drainTimeoutMs === undefined);
    for (const fixture of cases) copyFileSync(fixture.inputPath, join(dir, `${fixture.name}${fixture.ext}`));
    // The modules `drainguard fix` would have written for all of them (every piece, in each language).
    writeFileSync(join(dir, 'drain-body.ts'), helperModuleText(ALL_PIECES, detectStyle('', true), drainBounds()));
    writeFileSync(join(dir, 'drain-body.js'), helperModuleText(ALL_PIECES, detectStyle('', false), drainBounds()));
    const clean = 'export async function ok(url) {\n  const res = await fetch(url);\n  return res.text();\n}\n';
    writeFileSync(join(dir, 'clean.js'), clean);

    const stdout = await runJscodeshift(dir);

    for (const fixture of cases) {
      expect(readFileSync(join(dir, `${fixture.name}${fixture.ext}`), 'utf8'), fixture.name).toBe(fixture.output);
    }
    expect(readFileSync(join(dir, 'clean.js'), 'utf8')).toBe(clean);
    const changed = cases.filter((fixture) => fixture.output !== fixture.input).length;
    expect(stdout).toMatch(new RegExp(`\\b${changed} ok\\b`));
    expect(stdout).toContain('0 errors');
    expect(stdout).toContain('manual: the close is used as a value, not as a statement of its own');
  }, 180_000);

  it('without a helper module, a file gets its own copy, with the bounds --drainTimeoutMs and --drainMaxBytes give', async () => {
    const dir = mkdtempSync(join(work, 'own-copy-'));
    const fixture = fixtures.find((candidate) => candidate.name === '02-js-while-reader-cancel-break')!;
    const file = join(dir, 'client.js');
    copyFileSync(fixture.inputPath, file);
    const stdout = await runJscodeshift(dir, '--drainTimeoutMs=0', '--drainMaxBytes=4096', '--no-babel');
    const output = readFileSync(file, 'utf8');
    expect(output.split('\n').slice(0, 3)).toEqual([
      '// Past these limits a drain gives up and closes as the code did (0: no limit).',
      'const DRAIN_LIMITS = { timeoutMs: 0, maxBytes: 4 * 1024 };',
      '',
    ]);
    expect(output).toContain('\nfunction drainReader(reader, close) {\n');
    expect(output).toContain('      void drainReader(reader, () => reader.cancel());\n');
    expect(output.endsWith(fixture.output.replace("import { drainReader } from './drain-body.js';\n\n", ''))).toBe(true);
    expect(stdout).toContain('fixed: unbounded: --drain-timeout-ms 0 drains without a budget');
  }, 180_000);
});
