import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

export const PYTHON_FIXTURES = fileURLToPath(new URL('../../fixtures/python', import.meta.url));

export interface PythonSite {
  line: number;
  column: number;
  status: 'fixed' | 'manual';
  reason?: string;
}

export interface PythonFixture {
  name: string;
  inputPath: string;
  input: string;
  output: string;
  sites: PythonSite[];
  /** ruff's settings from the fixture's pyproject.toml (`[tool.ruff]`), with `E`, `F`, `I`, `B` selected. */
  ruff: Record<string, unknown>;
}

function ruffSettings(dir: string): Record<string, unknown> {
  const file = join(dir, 'pyproject.toml');
  const tool = existsSync(file) ? (parse(readFileSync(file, 'utf8')).tool as { ruff?: Record<string, unknown> } | undefined) : undefined;
  const ruff = tool?.ruff ?? {};
  return { ...ruff, lint: { ...(ruff.lint as object | undefined), select: ['E', 'F', 'I', 'B'] } };
}

/**
 * fixtures/python/<name>/ with input.py, output.py (expected), sites.json (expected report) and the
 * pyproject.toml whose declarations the rewrite reads (which bound, which line length, how imports sort).
 */
export function loadPythonFixtures(): PythonFixture[] {
  return readdirSync(PYTHON_FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(PYTHON_FIXTURES, entry.name, 'input.py')))
    .map((entry) => {
      const dir = join(PYTHON_FIXTURES, entry.name);
      return {
        name: entry.name,
        inputPath: join(dir, 'input.py'),
        input: readFileSync(join(dir, 'input.py'), 'utf8'),
        output: readFileSync(join(dir, 'output.py'), 'utf8'),
        sites: JSON.parse(readFileSync(join(dir, 'sites.json'), 'utf8')) as PythonSite[],
        ruff: ruffSettings(dir),
      };
    });
}

/** fixtures/python/clean/*.py: correct code (the correct twins of the shapes, exempt paths): nothing to report. */
export function loadCleanPython(): { name: string; text: string }[] {
  const dir = join(PYTHON_FIXTURES, 'clean');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.py'))
    .map((file) => ({ name: file, text: readFileSync(join(dir, file), 'utf8') }));
}
