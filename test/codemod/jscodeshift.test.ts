import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFixtures } from './fixture-cases.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
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
  it('rewrites every default-budget fixture to its expected output, leaves manual ones and clean files byte-identical', async () => {
    const dir = mkdtempSync(join(work, 'default-'));
    const cases = fixtures.filter((fixture) => fixture.drainTimeoutMs === undefined);
    for (const fixture of cases) copyFileSync(fixture.inputPath, join(dir, `${fixture.name}${fixture.ext}`));
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

  it('passes --drainTimeoutMs through to the budget', async () => {
    const dir = mkdtempSync(join(work, 'budget-'));
    const cases = fixtures.filter((fixture) => fixture.drainTimeoutMs === 0);
    expect(cases.length).toBeGreaterThan(0);
    for (const fixture of cases) copyFileSync(fixture.inputPath, join(dir, `${fixture.name}${fixture.ext}`));
    await runJscodeshift(dir, '--drainTimeoutMs=0', '--no-babel');
    for (const fixture of cases) {
      expect(readFileSync(join(dir, `${fixture.name}${fixture.ext}`), 'utf8'), fixture.name).toBe(fixture.output);
    }
  }, 180_000);
});
