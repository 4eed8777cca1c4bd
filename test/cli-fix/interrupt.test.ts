import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { FIXTURES, spawnCli, tempDir } from './run-cli.js';

const input = readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'input.ts'), 'utf8');
const output = readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'output.ts'), 'utf8');

it('an interrupted run (SIGINT mid-run) leaves every file either old or new, and no temporary file', async () => {
  const dir = tempDir('fix-sigint');
  const count = 400;
  const names = Array.from({ length: count }, (_, index) => `client-${String(index).padStart(3, '0')}.ts`);
  for (const name of names) writeFileSync(join(dir, name), input);

  const child = spawnCli(['fix', '.'], dir);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // Interrupt as soon as the first rewrite has landed, while most files are still waiting.
  for (let polls = 0; polls < 2000; polls++) {
    if (readFileSync(join(dir, names[0]), 'utf8') !== input) break;
    await sleep(5);
  }
  child.kill('SIGINT');
  const [code] = await exited;

  const contents = names.map((name) => readFileSync(join(dir, name), 'utf8'));
  const rewritten = contents.filter((text) => text === output).length;
  const untouched = contents.filter((text) => text === input).length;
  expect(rewritten + untouched).toBe(count);
  expect(rewritten).toBeGreaterThan(0);
  expect(untouched).toBeGreaterThan(0);
  expect(code).toBe(130);
  expect(stderr).toMatch(/interrupted after \d+ of 400 files; every file is either unchanged or fully rewritten/);
  expect(readdirSync(dir).sort()).toEqual(names);
}, 120_000);
