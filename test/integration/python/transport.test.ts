// drainguard-httpx (the Python transport package of drainguard-httpx/): its pytest suite, run with Debian's
// /usr/bin/python3 (python3-httpx 0.23, httpcore 0.16, python3-anyio, python3-trio, python3-pytest) against
// the counting Node peer (test/support/transport-python-server.mjs), and again with DRAINGUARD_MODERN_PYTHON
// (httpx >= 0.25 on httpcore 1.x, anyio >= 4, trio, pytest) when it is set; and the package installed with pip
// from the checkout and from a git URL, with Debian's setuptools (no build isolation: PyPI is not needed).
// A pytest failure fails the test; what the machine lacks skips it with the reason in its name.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PYTHON, modernPython, pythonHttpxMissing, pythonTrioMissing } from '../../support/python-keepalive.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGE = path.join(ROOT, 'drainguard-httpx');
const work = mkdtempSync(path.join(tmpdir(), 'drainguard-httpx-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** @returns a reason the interpreter cannot run the suite, or null */
function pytestMissing(python: string): string | null {
  const run = spawnSync(python, ['-c', 'import pytest'], { encoding: 'utf8' });
  if (run.error) return `${python} is not there (${run.error.message})`;
  return run.status === 0 ? null : `${python} cannot import pytest (apt-get install python3-pytest)`;
}

const missing = pythonHttpxMissing() ?? pytestMissing(PYTHON);
const trioMissing = missing ? null : pythonTrioMissing();
const modern = modernPython();
const modernMissing = 'missing' in modern ? modern.missing : pytestMissing(modern.python);
const pipWorks = spawnSync(PYTHON, ['-m', 'pip', '--version'], { encoding: 'utf8' }).status === 0 && spawnSync(PYTHON, ['-c', 'import setuptools'], { encoding: 'utf8' }).status === 0;
const pipMissing = missing || pipWorks ? null : `${PYTHON} has no pip or setuptools (apt-get install python3-pip python3-setuptools)`;

function runPytest(python: string): Promise<{ code: number; output: string }> {
  const args = ['-m', 'pytest', path.join(PACKAGE, 'tests'), '-q', '-rs', '-p', 'no:cacheprovider', '-W', 'ignore::DeprecationWarning'];
  const env = { ...process.env, PYTHONPATH: path.join(PACKAGE, 'src'), PYTHONDONTWRITEBYTECODE: '1', DRAINGUARD_NODE: process.execPath };
  return new Promise((resolve) => {
    execFile(python, args, { cwd: PACKAGE, env, timeout: 540_000, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}\n${stderr}` });
    });
  });
}

function expectPassed({ code, output }: { code: number; output: string }): void {
  const summary = output.trim().split('\n').pop() ?? '';
  // The whole output in the failure message: pytest's report says which test failed and why.
  expect({ code, summary, output: code === 0 ? '' : output }).toMatchObject({ code: 0, output: '' });
  expect(summary).toMatch(/\b[1-9]\d* passed\b/);
  expect(summary).not.toMatch(/failed|error/);
}

describe.skipIf(missing !== null)(`drainguard-httpx${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it(`pytest with Debian's python3 (httpx 0.23, httpcore 0.16)${trioMissing ? `, the trio runs skipped: ${trioMissing}` : ', asyncio, trio, anyio and sync'}`, { timeout: 600_000 }, async () => {
    expectPassed(await runPytest(PYTHON));
  });

  it.skipIf(modernMissing !== null)(`pytest with a newer httpx/httpcore/anyio (DRAINGUARD_MODERN_PYTHON)${modernMissing ? ` (skipped: ${modernMissing})` : ''}`, { timeout: 600_000 }, async () => {
    expectPassed(await runPytest((modern as { python: string }).python));
  });

  it.skipIf(pipMissing !== null)(`installs with pip from the checkout and from a git URL (Debian setuptools, no build isolation)${pipMissing ? ` (skipped: ${pipMissing})` : ''}`, { timeout: 120_000 }, () => {
    const pip = (target: string, source: string) =>
      spawnSync(PYTHON, ['-m', 'pip', 'install', '--quiet', '--no-build-isolation', '--no-deps', '--no-index', '--target', target, source], { encoding: 'utf8', env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONDONTWRITEBYTECODE: '1' } });
    // A copy, so that setuptools' build/ and *.egg-info stay out of the checkout.
    const copy = path.join(work, 'checkout');
    spawnSync('cp', ['-r', PACKAGE, copy]);
    for (const [name, source] of [
      ['checkout', copy],
      ['git', `git+file://${ROOT}#subdirectory=drainguard-httpx`],
    ]) {
      const target = path.join(work, `site-${name}`);
      const install = pip(target, source);
      expect([name, install.status, install.stderr.split('\n').filter((line) => !line.includes('WARNING')).join('\n').trim()]).toEqual([name, 0, '']);
      const probe = spawnSync(PYTHON, ['-c', 'import drainguard_httpx as d, httpx; t = d.DrainingTransport(); a = d.AsyncDrainingTransport(); print(d.__version__, type(t.inner).__name__, type(a.inner).__name__)'], {
        encoding: 'utf8',
        env: { ...process.env, PYTHONPATH: target, PYTHONDONTWRITEBYTECODE: '1' },
      });
      expect([name, probe.stdout.trim()]).toEqual([name, '0.1.0 HTTPTransport AsyncHTTPTransport']);
    }
  });
});
