// Runs the Python clients of test/support/python-clients (and their rewrites) with Debian's
// python3 and httpx: shared by test/python/behaviour.test.ts and `bench:keepalive --client python`.
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PYTHON = '/usr/bin/python3';
const HARNESS = fileURLToPath(new URL('./python-harness.py', import.meta.url));

/** @returns {string | null} */
export function pythonHttpxMissing() {
  const run = spawnSync(PYTHON, ['-c', 'import httpx, anyio'], { encoding: 'utf8' });
  if (run.error) return `${PYTHON} is not there (${run.error.message})`;
  return run.status === 0 ? null : `${PYTHON} cannot import httpx and anyio (apt-get install python3-httpx python3-anyio): ${run.stderr.trim().split('\n').pop()}`;
}

/**
 * @param {string} clientPath @param {string} url @param {number} calls @param {number} [timeoutMs]
 * @returns {Promise<import('./python-keepalive.d.mts').PythonRun>}
 */
export function runPythonClient(clientPath, url, calls, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, [HARNESS, clientPath, url, String(calls)], { timeout: timeoutMs, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`python client ${clientPath} failed: ${error.message}\n${stderr}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error(`python client ${clientPath} printed no result:\n${stdout}\n${stderr}`));
      }
    });
  });
}
