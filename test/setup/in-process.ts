/**
 * `npm test` runs in process (CONTRIBUTING.md#tests): a test file that starts a process through node:child_process
 * (the built CLI, python3, oxlint, npm, git, a benchmark) fails, and says to move the test to test/integration/.
 * Each function of node:child_process is wrapped once per worker; the start is refused (it throws) and also recorded,
 * so that a caller that catches the error still fails its test file (in the hook below).
 *
 * Still allowed: `openssl`, which makes the self-signed certificate of the TLS tests (Node has no API to make one).
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ALLOWED_COMMANDS = ['openssl'];
const FUNCTIONS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
const WRAPPED = Symbol.for('drainguard.test.in-process');

/** The processes the running test file tried to start, by test file (a worker runs several: `isolate: false`). */
const refused = new Map<string, string[]>();

function testFile(): string {
  const testPath = expect.getState().testPath;
  return testPath ? path.relative(ROOT, testPath) : '(no test file)';
}

function check(name: string, command: unknown): void {
  const file = testFile();
  const program = name === 'fork' ? process.execPath : String(command);
  if (ALLOWED_COMMANDS.includes(path.basename(program.split(' ')[0]))) return;
  const started = `child_process.${name}(${JSON.stringify(command)})`;
  refused.set(file, [...(refused.get(file) ?? []), started]);
  throw new Error(`npm test runs in process: ${file} starts ${started}. Move the test to test/integration/ (CONTRIBUTING.md#tests).`);
}

type AnyFunction = (...args: unknown[]) => unknown;
const processes = childProcess as unknown as Record<string, AnyFunction> & { [WRAPPED]?: true };
if (!processes[WRAPPED]) {
  for (const name of FUNCTIONS) {
    const original = processes[name];
    const wrapped = function (this: unknown, command: unknown, ...rest: unknown[]): unknown {
      check(name, command);
      return original.call(this, command, ...rest);
    } as AnyFunction & { [promisify.custom]?: AnyFunction };
    // exec and execFile have their own promisified form ({ stdout, stderr }); keep it, checked the same way.
    const custom = (original as { [promisify.custom]?: AnyFunction })[promisify.custom];
    if (custom) {
      wrapped[promisify.custom] = function (this: unknown, command: unknown, ...rest: unknown[]): unknown {
        check(name, command);
        return custom.call(this, command, ...rest);
      };
    }
    processes[name] = wrapped;
  }
  processes[WRAPPED] = true;
  // `import { spawn } from 'node:child_process'` reads the wrapped functions too.
  syncBuiltinESMExports();
}

afterAll(() => {
  const file = testFile();
  const starts = refused.get(file);
  if (starts) throw new Error(`npm test runs in process: ${file} started ${starts.length} process(es): ${starts.join(', ')}. Move the test to test/integration/ (CONTRIBUTING.md#tests).`);
});
