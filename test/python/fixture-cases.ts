import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
}

/** fixtures/python/<name>/ with input.py, output.py (expected) and sites.json (expected report). */
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
