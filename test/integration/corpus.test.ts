/**
 * The real-world sweep as a slow integration test (`npm run test:integration`): `npm run corpus` over each pinned
 * list, the shared one (the folder DRAINGUARD_CORPUS names, by default ../shared/corpus beside the checkout; skipped
 * with the reason where it is absent) and bench/corpus, installed into cache folders outside the repository (the first run
 * installs them from the npm registry). It fails on any report that no expected.tsv row calls real, on
 * any expected report not found, and on any file that does not parse.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function corpus(list: 'shared' | 'wide'): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'scripts/corpus.mjs'), '--only', list], { cwd: ROOT, maxBuffer: 1 << 28 }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout });
    });
  });
}

const SHARED_LIST = path.join(process.env.DRAINGUARD_CORPUS ?? path.resolve(ROOT, '../shared/corpus'), 'expected.tsv');

describe('npm run corpus', () => {
  for (const list of ['shared', 'wide'] as const) {
    const absent = list === 'shared' && !existsSync(SHARED_LIST);
    it.skipIf(absent)(`${list} list: every expectation holds, no unexpected report${absent ? ` (skipped: no ${SHARED_LIST})` : ''}`, async () => {
      const run = await corpus(list);
      const failed = run.stdout.split('\n').filter((line) => line.startsWith('| FAIL'));
      expect(failed).toEqual([]);
      expect(run.stdout).toContain(`corpus ${list}: every expectation holds\n`);
      expect(run.code).toBe(0);
    }, 45 * 60_000);
  }
});
