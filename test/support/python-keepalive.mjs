// Runs the Python clients of test/support/python-clients (and their rewrites) with a real interpreter and
// httpx: shared by the Python behaviour tests, `bench:keepalive --client python` and `sdk-suites:python`.
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Debian's interpreter (python3-httpx 0.23, python3-anyio 3.6, python3-trio 0.22). */
export const PYTHON = '/usr/bin/python3';
const HARNESS = fileURLToPath(new URL('./python-harness.py', import.meta.url));

/** @param {string} python @param {string} imports @returns {string | null} */
function missingImports(python, imports) {
  const run = spawnSync(python, ['-c', `import ${imports}`], { encoding: 'utf8' });
  if (run.error) return `${python} is not there (${run.error.message})`;
  return run.status === 0 ? null : `${python} cannot import ${imports}: ${run.stderr.trim().split('\n').pop()}`;
}

/** @returns {string | null} */
export function pythonHttpxMissing() {
  const missing = missingImports(PYTHON, 'httpx, anyio');
  return missing && `${missing} (apt-get install python3-httpx python3-anyio)`;
}

/** @returns {string | null} */
export function pythonTrioMissing() {
  const missing = missingImports(PYTHON, 'trio');
  return missing && `${missing} (apt-get install python3-trio)`;
}

/**
 * An interpreter whose HTTP stack survives a cancelled read (httpx >= 0.25 on httpcore >= 0.17.3) with
 * anyio >= 4 and trio, for the cancel-scope bounds: `DRAINGUARD_MODERN_PYTHON`, checked.
 * @returns {{ python: string } | { missing: string }}
 */
export function modernPython() {
  const python = process.env.DRAINGUARD_MODERN_PYTHON;
  if (!python) return { missing: 'DRAINGUARD_MODERN_PYTHON is not set (a python3 with httpx >= 0.25, anyio >= 4 and trio)' };
  const check = 'import anyio, httpcore, trio\nv = tuple(int(x) for x in httpcore.__version__.split(".")[:3])\nassert v >= (0, 17, 3), httpcore.__version__\nimport importlib.metadata as m\nassert int(m.version("anyio").split(".")[0]) >= 4, m.version("anyio")';
  const run = spawnSync(python, ['-c', check], { encoding: 'utf8' });
  if (run.error || run.status !== 0) return { missing: `DRAINGUARD_MODERN_PYTHON=${python} does not have httpcore >= 0.17.3, anyio >= 4 and trio: ${(run.stderr ?? run.error?.message ?? '').trim().split('\n').pop()}` };
  return { python };
}

/**
 * @param {{ clientPath: string, plan: { url: string, calls: number }[], backend?: string, python?: string, timeoutMs?: number, pool?: number, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ runs: import('./python-keepalive.d.mts').PythonRun[], maxrss_kb: number }>}
 */
export function runPythonPlan({ clientPath, plan, backend = 'asyncio', python = PYTHON, timeoutMs = 60_000, pool = 1, env = process.env }) {
  const args = [HARNESS, '--backend', backend, '--pool', String(pool), clientPath, ...plan.flatMap(({ url, calls }) => [url, String(calls)])];
  return new Promise((resolve, reject) => {
    execFile(python, args, { timeout: timeoutMs, maxBuffer: 1 << 24, env }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`python client ${clientPath} (${backend}) failed: ${error.message}\n${stderr}`));
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

/**
 * @param {string} clientPath @param {string} url @param {number} calls @param {number} [timeoutMs]
 * @returns {Promise<import('./python-keepalive.d.mts').PythonRun>}
 */
export async function runPythonClient(clientPath, url, calls, timeoutMs = 60_000) {
  const { runs } = await runPythonPlan({ clientPath, plan: [{ url, calls }], timeoutMs });
  return runs[0];
}
