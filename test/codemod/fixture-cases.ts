import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures', import.meta.url));

export interface ExpectedSite {
  line: number;
  column: number;
  status: 'fixed' | 'manual';
  reason?: string;
}

export interface FixtureCase {
  name: string;
  dir: string;
  ext: string;
  inputPath: string;
  input: string;
  output: string;
  sites: ExpectedSite[];
  /** The helper module `drainguard fix` writes beside the output (`drain-body.ts` / `.js`), where the output imports one. */
  helperPath: string;
  helper: string | null;
  drainTimeoutMs?: number;
  drainMaxBytes?: number;
}

/**
 * Every fixtures/<name>/ with input.<ext>, output.<ext> (expected, as `drainguard fix` writes it with the helper module
 * at fixtures/<name>/drain-body.ts or .js), sites.json (expected report), the expected helper module where the output
 * imports one, and optional options.json.
 */
export function loadFixtures(): FixtureCase[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    // fixtures/python/ holds the Python front end's pairs (test/python/fixtures.test.ts).
    .filter((entry) => entry.isDirectory() && entry.name !== 'python')
    .map((entry) => {
      const dir = join(FIXTURES_DIR, entry.name);
      const inputName = readdirSync(dir).find((file) => file.startsWith('input.'))!;
      const ext = extname(inputName);
      const optionsPath = join(dir, 'options.json');
      const options = existsSync(optionsPath) ? (JSON.parse(readFileSync(optionsPath, 'utf8')) as { drainTimeoutMs?: number; drainMaxBytes?: number }) : {};
      const helperPath = join(dir, ext === '.js' ? 'drain-body.js' : 'drain-body.ts');
      return {
        name: entry.name,
        dir,
        ext,
        inputPath: join(dir, inputName),
        input: readFileSync(join(dir, inputName), 'utf8'),
        output: readFileSync(join(dir, `output${ext}`), 'utf8'),
        sites: JSON.parse(readFileSync(join(dir, 'sites.json'), 'utf8')) as ExpectedSite[],
        helperPath,
        helper: existsSync(helperPath) ? readFileSync(helperPath, 'utf8') : null,
        drainTimeoutMs: options.drainTimeoutMs,
        drainMaxBytes: options.drainMaxBytes,
      };
    });
}
