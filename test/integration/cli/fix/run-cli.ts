import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli.js');
export const FIXTURES = join(ROOT, 'fixtures');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `drainguard` binary as a user would, in `cwd`. */
export function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** `nodeArgs`: options for node itself, before the CLI (`--import` a module that prepares the process). */
export function spawnCli(args: string[], cwd: string, nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `drainguard-${prefix}-`));
}

/** Copies fixtures/<name>/input.<ext> to `dir/<file>`. */
export function copyFixtureInput(name: string, ext: string, dir: string, file: string): string {
  const target = join(dir, file);
  cpSync(join(FIXTURES, name, `input${ext}`), target);
  return target;
}
