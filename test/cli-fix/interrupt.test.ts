import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { FIXTURES, spawnCli, tempDir } from './run-cli.js';

const input = readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'input.ts'), 'utf8');
const output = readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'output.ts'), 'utf8');

it('an interrupted run (SIGINT mid-run) leaves every file either old or new, and no temporary file', async () => {
  // fix rewrites every file in memory first and writes them (the helper module first) only then: an interrupt
  // while it reads leaves every file as it was, one while it writes stops before the next file.
  const dir = tempDir('fix-sigint');
  const count = 400;
  const names = Array.from({ length: count }, (_, index) => `client-${String(index).padStart(3, '0')}.ts`);
  for (const name of names) writeFileSync(join(dir, name), input);

  const child = spawnCli(['fix', '.'], dir);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // Interrupt while it reads and rewrites (400 files take it seconds).
  await sleep(1500);
  child.kill('SIGINT');
  const [code] = await exited;

  const contents = names.map((name) => readFileSync(join(dir, name), 'utf8'));
  const rewritten = contents.filter((text) => text === output).length;
  const untouched = contents.filter((text) => text === input).length;
  expect(rewritten + untouched).toBe(count);
  expect(untouched).toBeGreaterThan(0);
  expect(code).toBe(130);
  expect(stderr).toMatch(/interrupted after \d+ of 400 files; every file is either unchanged or fully rewritten/);
  // The module is written before any file that imports it, and whole.
  const module = readdirSync(dir).includes('drain-body.ts') ? readFileSync(join(dir, 'drain-body.ts'), 'utf8') : null;
  if (rewritten > 0) expect(module).toBe(readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'drain-body.ts'), 'utf8'));
  expect(readdirSync(dir).filter((name) => name !== 'drain-body.ts').sort()).toEqual(names);
}, 120_000);
