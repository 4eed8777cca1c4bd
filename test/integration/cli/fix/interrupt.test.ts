import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FIXTURES, spawnCli, tempDir } from './run-cli.js';

const input = readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'input.ts'), 'utf8');
const output = readFileSync(join(FIXTURES, '01-ts-while-reader-cancel-return', 'output.ts'), 'utf8');

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** The CLI with its stderr taken for a terminal (`tty`), so that it shows its progress line, which the tests wait for. */
function start(args: string[], dir: string, tty = false): Run {
  const child = spawnCli(args, dir, tty ? ['--import', 'data:text/javascript,process.stderr.isTTY=true'] : []);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 60_000) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
}

/** The progress line's steps, as a terminal shows them one after the other. */
const steps = (stderr: string): string[] => stderr.split('\r\u001b[2K').filter(Boolean);

/**
 * A project whose own `typescript` is the real compiler, except that a type check takes a minute of synchronous work
 * (as the first check of a large project takes seconds) and says when it starts, in `checking`.
 */
function slowTypeCheckProject(count: number): { dir: string; names: string[]; checking: string } {
  const dir = tempDir('fix-sigint-types');
  const checking = join(dir, 'type-check-started');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', lib: ['es2022', 'dom', 'dom.asynciterable'], types: [], noEmit: true } }));
  mkdirSync(join(dir, 'node_modules/typescript'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/typescript/package.json'), JSON.stringify({ name: 'typescript', version: '0.0.0-slow', main: 'index.js' }));
  writeFileSync(
    join(dir, 'node_modules/typescript/index.js'),
    [
      `const ts = require(${JSON.stringify(createRequire(import.meta.url).resolve('typescript'))});`,
      `const fs = require('node:fs');`,
      'module.exports = {',
      '  ...ts,',
      '  getPreEmitDiagnostics: (program, file) => {',
      `    fs.writeFileSync(${JSON.stringify(checking)}, 'started');`,
      '    for (const end = Date.now() + 60000; Date.now() < end; );',
      '    return ts.getPreEmitDiagnostics(program, file);',
      '  },',
      '};',
    ].join('\n'),
  );
  const names = Array.from({ length: count }, (_, index) => `client-${index}.ts`);
  for (const name of names) writeFileSync(join(dir, name), input);
  return { dir, names, checking };
}

describe('Ctrl-C', () => {
  it('while it reads: nothing is written, and the summary lists nothing as fixed or created', async () => {
    // fix rewrites every file in memory, formats and type-checks the rewrites, and only then writes them (the helper
    // module first).
    const dir = tempDir('fix-sigint');
    const count = 400;
    const names = Array.from({ length: count }, (_, index) => `client-${String(index).padStart(3, '0')}.ts`);
    for (const name of names) writeFileSync(join(dir, name), input);

    const run = start(['fix', '.'], dir, true);
    await until(() => steps(run.stderr()).includes('[50/400] client-049.ts'), 'the 50th file');
    run.child.kill('SIGINT');
    const [code] = await run.exited;

    expect(code).toBe(130);
    expect(names.map((name) => readFileSync(join(dir, name), 'utf8')).every((text) => text === input)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(names);
    expect(run.stdout()).toMatch(/^\d+ files scanned, 0 sites: 0 fixed, 0 manual, 0 errors \(interrupted while reading the files: \d+ files not written\)\n$/);
    expect(steps(run.stderr()).at(-1)).toBe('drainguard fix: interrupted while reading the files: nothing was written, every file is as it was.\n');
  }, 120_000);

  it('while it type-checks: the check stops there, nothing is written, the helper module is not "created"', async () => {
    const { dir, names, checking } = slowTypeCheckProject(3);
    const run = start(['fix', '.'], dir, true);
    await until(() => steps(run.stderr()).some((step) => step.startsWith('type-checking')) && existsSync(checking), 'the type-check phase and its first check');
    run.child.kill('SIGINT');
    // A hang guard, not a latency: the check in progress would take a minute.
    const [code] = await Promise.race([run.exited, sleep(30_000).then(() => [null, null] as const)]);
    run.child.kill('SIGKILL');

    expect(code).toBe(130);
    expect(readdirSync(dir).sort()).toEqual([...names, 'node_modules', 'tsconfig.json', 'type-check-started']);
    expect(names.map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(names.map(() => input));
    expect(run.stdout()).toBe('3 files scanned, 0 sites: 0 fixed, 0 manual, 0 errors (interrupted while type-checking: 3 files not written)\n');
    expect(steps(run.stderr()).slice(-2)).toEqual([
      'type-checking the helper module',
      'drainguard fix: interrupted while type-checking: nothing was written, every file is as it was.\n',
    ]);
  }, 60_000);

  it('while it type-checks, with --json: the same, in the JSON summary', async () => {
    const { dir, names, checking } = slowTypeCheckProject(2);
    const run = start(['fix', '--json', '.'], dir);
    await until(() => existsSync(checking), 'the first type check');
    run.child.kill('SIGINT');
    const [code] = await Promise.race([run.exited, sleep(30_000).then(() => [null, null] as const)]);
    run.child.kill('SIGKILL');

    expect(code).toBe(130);
    expect(JSON.parse(run.stdout())).toEqual({
      files: [],
      summary: { filesScanned: 2, sitesFound: 0, fixed: 0, manual: 0, errors: 0, interrupted: { phase: 'type-checking', filesNotWritten: 2 } },
    });
    expect(run.stderr()).toBe('drainguard fix: interrupted while type-checking: nothing was written, every file is as it was.\n');
    expect(names.map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(names.map(() => input));
    expect(existsSync(join(dir, 'drain-body.ts'))).toBe(false);
  }, 60_000);

  it('without Ctrl-C, the same project is written whole (what the interrupted runs stopped)', async () => {
    const dir = tempDir('fix-no-sigint');
    writeFileSync(join(dir, 'client.ts'), input);
    const run = start(['fix', '.'], dir);
    const [code] = await run.exited;
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'client.ts'), 'utf8')).toBe(output);
    expect(run.stdout()).toBe('drain-body.ts  helper module created\ndrain-body.test.ts  test of the helper module created (node:test)\nclient.ts:11:13  fixed\n1 file scanned, 1 site: 1 fixed, 0 manual, 0 errors\n');
  }, 60_000);
});
