// Runs a command to completion with a bound: past `timeoutMs` (default 30 minutes: nothing the
// harness starts may hang it) the whole process group is killed and the result says so (a hung
// test suite shows as `timedOut`, not as a harness that never returns).
import { spawn } from 'node:child_process';

export const DEFAULT_TIMEOUT_MS = 30 * 60_000;

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, input?: string }} options
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string, ms: number, timedOut: boolean }>}
 */
export function run(command, args, { cwd, env = process.env, timeoutMs = DEFAULT_TIMEOUT_MS, input }) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
    if (input !== undefined) child.stdin?.end(input);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // A grandchild left running in the group (a server a suite forgot) goes with it.
      killGroup(child.pid);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/** @param {number | undefined} pid */
function killGroup(pid) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
