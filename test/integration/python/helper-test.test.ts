// The pytest test `drainguard fix` writes beside a rewritten Python module, run in the project's own pytest with
// Debian's python3: a small project per async style (sync, anyio on asyncio and on trio, pytest-asyncio, pytest-trio),
// each with its pytest settings (warnings are errors), `drainguard fix` on it, then pytest on the test it wrote, and
// (with python3-coverage) every line and branch of the helper executed; and CPython compiling the test's text for
// each style and helper variant (its text and ruff on it, in process: test/python/helper-test.test.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pythonHelperTestText } from '../../../codemods/python/helper-test.js';
import { tempProject } from '../../cli/helpers.js';
import { STYLES as SPEC_STYLES, VARIANTS } from '../../python/helper-test-specs.js';
import { PYTHON, pythonCompileError } from '../../support/python-compile.js';

const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));

function missingImports(imports: string): string | null {
  if (!existsSync(PYTHON)) return `no ${PYTHON}`;
  const run = spawnSync(PYTHON, ['-c', `import ${imports}`], { encoding: 'utf8' });
  return run.status === 0 ? null : `${PYTHON} cannot import ${imports}`;
}

const pytestMissing = missingImports('httpx, anyio, trio, pytest');
const asyncioMissing = missingImports('pytest_asyncio');
const coverageMissing = missingImports('coverage');
/** pytest-trio is no Debian package: without it, the project's conftest runs its `trio` tests as the plugin does (below). */
const pytestTrio = missingImports('pytest_trio') === null;

const ASYNC_CLIENT = [
  'import httpx',
  '',
  '',
  'async def events(client: httpx.AsyncClient, url: str) -> list[str]:',
  '    out: list[str] = []',
  '    async with client.stream("GET", url) as response:',
  '        async for line in response.aiter_lines():',
  '            if line == "data: [DONE]":',
  '                await response.aclose()',
  '                return out',
  '            out.append(line)',
  '    return out',
  '',
].join('\n');

const SYNC_CLIENT = [
  'import httpx',
  '',
  '',
  'def events(client: httpx.Client, url: str) -> list[str]:',
  '    out: list[str] = []',
  '    with client.stream("GET", url) as response:',
  '        for line in response.iter_lines():',
  '            if line == "data: [DONE]":',
  '                response.close()',
  '                return out',
  '            out.append(line)',
  '    return out',
  '',
].join('\n');

/** A stand-in for pytest-trio where it is not installed: runs a test marked `trio` in `trio.run`, as the plugin does. */
const TRIO_STANDIN = [
  'import functools',
  'import inspect',
  '',
  'import pytest',
  'import trio',
  '',
  '',
  'def pytest_configure(config):',
  '    config.addinivalue_line("markers", "trio: run the test in trio.run (a stand-in for pytest-trio)")',
  '',
  '',
  '@pytest.hookimpl(tryfirst=True)',
  'def pytest_pyfunc_call(pyfuncitem):',
  '    if pyfuncitem.get_closest_marker("trio") and inspect.iscoroutinefunction(pyfuncitem.obj):',
  '        names = pyfuncitem._fixtureinfo.argnames',
  '        trio.run(functools.partial(pyfuncitem.obj, **{name: pyfuncitem.funcargs[name] for name in names}))',
  '        return True',
  '    return None',
  '',
].join('\n');

/** What `coverage json` reports per file (the fields read here). */
interface CoverageJson {
  files: Record<string, { missing_lines: number[]; missing_branches: [number, number][] }>;
}

const pyproject = (extra = ''): string =>
  `[project]\nname = "pkg"\nrequires-python = ">=3.9"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\nfilterwarnings = ["error"]\n${extra}`;

interface Style {
  name: string;
  missing: string | null;
  files: Record<string, string>;
  /** The tests pytest collects from the file drainguard wrote. */
  tests: number;
  marker: string | null;
}

const STYLES: Style[] = [
  {
    name: 'sync',
    missing: pytestMissing,
    files: { 'pyproject.toml': pyproject(), 'src/pkg/__init__.py': '', 'src/pkg/client.py': SYNC_CLIENT, 'tests/test_other.py': 'def test_other() -> None:\n    assert True\n' },
    tests: 8,
    marker: null,
  },
  {
    name: "anyio's plugin, on asyncio and on trio",
    missing: pytestMissing,
    files: {
      // anyio 3.6's trio backend uses what trio 0.22 deprecates (Debian's pair): the warning is anyio's, not the test's.
      'pyproject.toml': pyproject().replace('filterwarnings = ["error"]', 'filterwarnings = ["error", "ignore::trio.TrioDeprecationWarning"]'),
      'src/pkg/__init__.py': '',
      'src/pkg/client.py': ASYNC_CLIENT,
      'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture(params=["asyncio", "trio"])\ndef anyio_backend(request):\n    return request.param\n',
    },
    tests: 18,
    marker: '@pytest.mark.anyio',
  },
  {
    name: 'pytest-asyncio, strict mode',
    missing: pytestMissing ?? asyncioMissing,
    files: {
      'pyproject.toml': pyproject('asyncio_mode = "strict"\n'),
      'src/pkg/__init__.py': '',
      'src/pkg/client.py': ASYNC_CLIENT,
      'tests/test_other.py': 'import pytest\n\n\n@pytest.mark.asyncio\nasync def test_other() -> None:\n    assert True\n',
    },
    tests: 9,
    marker: '@pytest.mark.asyncio',
  },
  {
    name: `pytest-trio${pytestTrio ? '' : ' (its conftest stands in for the plugin, which is not installed)'}`,
    missing: pytestMissing,
    files: {
      'pyproject.toml': pyproject(),
      'src/pkg/__init__.py': '',
      'src/pkg/client.py': ASYNC_CLIENT,
      'tests/conftest.py': pytestTrio ? '' : TRIO_STANDIN,
      'tests/test_other.py': 'import pytest\n\n\n@pytest.mark.trio\nasync def test_other() -> None:\n    assert True\n',
    },
    tests: 9,
    marker: '@pytest.mark.trio',
  },
];

describe('the test drainguard fix writes for a Python module, in the project\'s pytest', () => {
  for (const style of STYLES) {
    it.skipIf(style.missing !== null)(`${style.name}: written under tests/, it passes${style.missing ? ` (skipped: ${style.missing})` : ''}`, () => {
      const dir = tempProject(style.files);
      execFileSync(process.execPath, [CLI, 'fix', 'src'], { cwd: dir, encoding: 'utf8' });
      const testPath = path.join(dir, 'tests', 'test_client_drain.py');
      const text = readFileSync(testPath, 'utf8');
      expect(text).toMatch(/^from pkg\.client import _a?drain_response$/m);
      if (style.marker) expect(text).toContain(`${style.marker}\nasync def test_adrain_response_drains_to_the_end(`);
      const run = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests/test_client_drain.py'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      expect(run.stdout + run.stderr).toMatch(new RegExp(`\\b${style.tests} passed\\b`));
      expect(run.status).toBe(0);
      // A second run changes nothing.
      const again = execFileSync(process.execPath, [CLI, 'fix', '--json', 'src'], { cwd: dir, encoding: 'utf8' });
      expect((JSON.parse(again) as { files: unknown[] }).files).toEqual([]);
    });
  }

  it.skipIf(pytestMissing !== null || coverageMissing !== null)(
    `every line and branch of both helpers runs (coverage with branches)${pytestMissing ?? coverageMissing ? ` (skipped: ${pytestMissing ?? coverageMissing})` : ''}`,
    () => {
      const client = `${SYNC_CLIENT}\n\n${ASYNC_CLIENT.replace('import httpx\n\n\n', '').replace('def events', 'def aevents')}`;
      const dir = tempProject({ 'pyproject.toml': pyproject(), 'src/pkg/__init__.py': '', 'src/pkg/client.py': client, 'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef anyio_backend():\n    return "asyncio"\n' });
      execFileSync(process.execPath, [CLI, 'fix', 'src'], { cwd: dir, encoding: 'utf8' });
      const run = spawnSync(PYTHON, ['-m', 'coverage', 'run', '--branch', '--include=src/pkg/client.py,tests/*', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests/test_client_drain.py'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      expect(run.stdout + run.stderr).toMatch(/\b17 passed\b/);
      const report = JSON.parse(execFileSync(PYTHON, ['-m', 'coverage', 'json', '-o', '-'], { cwd: dir, encoding: 'utf8' })) as CoverageJson;
      const module = report.files['src/pkg/client.py'];
      const source = readFileSync(path.join(dir, 'src/pkg/client.py'), 'utf8').split('\n');
      // The helpers: from each `def _drain_response` / `async def _adrain_response` to the blank lines after it.
      const helperLines = new Set<number>();
      for (const [index, line] of source.entries()) {
        if (!/^(async )?def _a?drain_response\(/.test(line)) continue;
        for (let n = index; n < source.length && !(source[n] === '' && source[n + 1] === ''); n++) helperLines.add(n + 1);
      }
      expect(helperLines.size).toBeGreaterThan(50);
      expect(module.missing_lines.filter((line) => helperLines.has(line))).toEqual([]);
      expect(module.missing_branches.filter(([from]) => helperLines.has(from))).toEqual([]);
      const test = report.files['tests/test_client_drain.py'];
      expect([test.missing_lines, test.missing_branches]).toEqual([[], []]);
    },
  );
});

describe('the text of the test of a Python drain helper', () => {
  for (const [name, spec] of Object.entries({ ...SPEC_STYLES, ...VARIANTS })) {
    it.skipIf(!existsSync(PYTHON))(`${name}: CPython compiles it${existsSync(PYTHON) ? '' : ' (skipped: no /usr/bin/python3)'}`, () => {
      expect(pythonCompileError(pythonHelperTestText(spec), `${name}.py`)).toBeNull();
    });
  }
});
