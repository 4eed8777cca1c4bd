/**
 * cli/engines/v8-tiering.ts, seen from outside: `drainguard lint` runs without V8's optimizing compiler until the text it
 * lints in process reaches 320 KiB (327,680 characters); the oxlint process it starts runs without it below
 * 1 MiB of text and does not get NODE_EXTRA_CA_CERTS. A preload (test/support/report-process.cjs) records, at each process's exit, whether a
 * function made hot was optimized and what NODE_EXTRA_CA_CERTS held.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli, tempProject } from '../../../cli/helpers.js';

const PRELOAD = path.join(ROOT, 'test/support/report-process.cjs');

interface ProcessRecord {
  script: string;
  extraCaCerts: string | null;
  optimizing: boolean;
}

/** A file the pre-filter keeps (it calls `abort()`), padded with a comment to `size` characters. */
function candidateOfSize(size: number): string {
  const code = 'export function stop(controller) {\n  controller.abort();\n}\n/*';
  return `${code}${' '.repeat(size - code.length - 3)}*/\n`;
}

async function recordsOf(files: Record<string, string>, env: Record<string, string>): Promise<{ code: number; records: ProcessRecord[] }> {
  const dir = tempProject(files);
  const file = path.join(dir, 'processes.jsonl');
  const run = await runCli(['lint', '--format', 'json', 'src'], dir, { NODE_OPTIONS: `--require ${PRELOAD}`, DRAINGUARD_PROCESS_FILE: file, ...env });
  const records = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ProcessRecord);
  return { code: run.code, records };
}

describe('V8 optimizing compiler in drainguard lint', () => {
  it('stays off for 300,000 characters linted in process (3 files of 100,000)', async () => {
    const files = { 'src/a.js': candidateOfSize(100_000), 'src/b.js': candidateOfSize(100_000), 'src/c.js': candidateOfSize(100_000) };
    const { code, records } = await recordsOf(files, { DRAINGUARD_ENGINE: 'native' });
    expect(code).toBe(0);
    expect(records).toEqual([{ script: CLI, extraCaCerts: expect.anything() as unknown, optimizing: false }]);
  });

  it('is turned back on for 400,000 characters (4 files of 100,000)', async () => {
    const files = { 'src/a.js': candidateOfSize(100_000), 'src/b.js': candidateOfSize(100_000), 'src/c.js': candidateOfSize(100_000), 'src/d.js': candidateOfSize(100_000) };
    const { code, records } = await recordsOf(files, { DRAINGUARD_ENGINE: 'native' });
    expect(code).toBe(0);
    expect(records.map((record) => record.optimizing)).toEqual([true]);
  });

  it('stays off when the pre-filter leaves nothing to parse', async () => {
    const { records } = await recordsOf({ 'src/plain.js': 'export const answer = 42;\n' }, {});
    expect(records.map((record) => record.optimizing)).toEqual([false]);
  });
});

describe('the oxlint process drainguard lint starts', () => {
  it('does not get NODE_EXTRA_CA_CERTS (Node would parse the certificates as it starts); the CLI keeps it', async () => {
    const dir = tempProject({ 'certs.pem': '' });
    const certs = path.join(dir, 'certs.pem');
    const { records } = await recordsOf({ 'src/a.js': candidateOfSize(1_000) }, { DRAINGUARD_ENGINE: 'oxlint', NODE_EXTRA_CA_CERTS: certs });
    const byScript = records.map((record) => ({ cli: record.script === CLI, extraCaCerts: record.extraCaCerts })).sort((a, b) => Number(b.cli) - Number(a.cli));
    expect(byScript).toEqual([
      { cli: true, extraCaCerts: certs },
      { cli: false, extraCaCerts: null },
    ]);
  });

  it('runs without the optimizing compiler below 1 MiB of text, with it from there', async () => {
    const oxlintOptimizing = async (size: number): Promise<boolean[]> => {
      const { records } = await recordsOf({ 'src/a.js': candidateOfSize(size) }, { DRAINGUARD_ENGINE: 'oxlint' });
      return records.filter((record) => record.script !== CLI).map((record) => record.optimizing);
    };
    expect(await oxlintOptimizing(1024 * 1024 - 1)).toEqual([false]);
    expect(await oxlintOptimizing(1024 * 1024)).toEqual([true]);
  });
});
