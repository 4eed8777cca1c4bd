// The pytest test `drainguard fix` writes beside a Python module's drain helper: its text for each async style
// (literal files, recorded with UPDATE_PYTHON_HELPER_TESTS=1 and read before committing), ruff-clean and laid out as
// ruff's formatter lays it out (ruff's WebAssembly build, in process); which helpers a module has; where the test goes
// and in which style. CPython compiling it: test/integration/python/helper-test.test.ts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpersInModule, isPythonHelperTest, pythonHelperTestText, type PythonTestSpec } from '../../codemods/python/helper-test.js';
import { helperText } from '../../codemods/python/helper-text.js';
import { planPythonHelperTest } from '../../codemods/python/helper-test-file.js';
import { pythonTestLayout } from '../../codemods/python/test-layout.js';
import { tempProject } from '../cli/helpers.js';
import { ruffDiagnostics, type RuffSettings } from '../support/python-ruff.js';
import { STYLES, VARIANTS } from './helper-test-specs.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'helper-tests');
/** Most of ruff's rule families a project may turn on (not pydocstyle, flake8-bandit's asserts or the copyright header). */
function ruffSettings(spec: PythonTestSpec): RuffSettings {
  const select = ['E', 'W', 'F', 'I', 'B', 'UP', 'C4', 'PERF', 'PL', 'ARG', 'SIM', 'PT', 'RUF', 'C90', 'FA', 'TID', 'T20', 'ISC', 'PIE', 'RET', 'Q'];
  const lint: Record<string, unknown> = {
    select,
    ignore: ['PLR2004'],
    isort: { 'known-first-party': [spec.module.split('.')[0], ...spec.isort.knownFirstParty], 'length-sort': spec.isort.lengthSort },
    'flake8-quotes': { 'inline-quotes': spec.quote === "'" ? 'single' : 'double' },
  };
  return {
    'line-length': spec.lineLength,
    'target-version': spec.python311 ? 'py311' : spec.python310 ? 'py310' : 'py39',
    lint,
    format: { 'quote-style': spec.quote === "'" ? 'single' : 'double' },
  };
}

describe('the text of the test of a Python drain helper', () => {
  for (const [name, spec] of Object.entries(STYLES)) {
    it(`${name}: as recorded in fixtures/helper-tests/${name}.py.txt`, () => {
      const text = pythonHelperTestText(spec);
      const file = path.join(FIXTURES, `${name}.py.txt`);
      if (process.env.UPDATE_PYTHON_HELPER_TESTS === '1' || !existsSync(file)) writeFileSync(file, text);
      expect(text).toBe(readFileSync(file, 'utf8'));
    });
  }

  for (const [name, spec] of Object.entries({ ...STYLES, ...VARIANTS })) {
    it(`${name}: ruff-clean under most of its rule families, and as its formatter lays it out`, async () => {
      const text = pythonHelperTestText(spec);
      // The comment the project's own rules ask for is checked below, with them.
      expect(ruffDiagnostics(spec.importComment ? text.replace(`  ${spec.importComment}`, '') : text, ruffSettings(spec))).toEqual([]);
      const { PositionEncoding, Workspace } = await import('@astral-sh/ruff-wasm-nodejs');
      expect(new Workspace(ruffSettings(spec), PositionEncoding.Utf16).format(text)).toBe(text);
    });

    if (spec.importComment) it(`${name}: its import of the private helper carries the noqa ruff's PLC2701 (a preview rule) asks for`, () => {
      const text = pythonHelperTestText(spec);
      const settings = { lint: { preview: true, select: ['PLC2701', 'RUF100'] } };
      expect(ruffDiagnostics(text, settings)).toEqual([]);
      expect(ruffDiagnostics(text.replace(`  ${spec.importComment}`, ''), settings)).toEqual([expect.stringMatching(/ (PLC2701|import-private-name) Private name import `_adrain_response`/)]);
    });
  }

  it('tests only what the helper does: no flood without a byte limit, no held body without a budget, no network stream without a bound', () => {
    const timeOnly = pythonHelperTestText(VARIANTS['time only']);
    expect(timeOnly).not.toMatch(/stops_at_the_byte_limit|LIMIT =|_flood/);
    expect(timeOnly).toMatch(/gives_up_on_a_body_left_open/);
    const bytesOnly = pythonHelperTestText(VARIANTS['bytes only']);
    expect(bytesOnly).not.toMatch(/gives_up_on|_trickle|budget=/);
    expect(bytesOnly).toMatch(/assert sum\(sizes\) == LIMIT/);
    const unbounded = pythonHelperTestText(VARIANTS.unbounded);
    expect(unbounded).not.toMatch(/network_stream"\]|no network stream|leaves_later_reads_alone|budget=/);
    expect(unbounded).toMatch(/test_adrain_response_keeps_a_cancel/);
    expect(pythonHelperTestText({ ...STYLES.sync, newline: '\r\n' })).toBe(pythonHelperTestText(STYLES.sync).replace(/\n/g, '\r\n'));
  });

  it('is recognised by its first line, and only that', () => {
    expect(isPythonHelperTest(pythonHelperTestText(STYLES.sync))).toBe(true);
    expect(isPythonHelperTest('\uFEFF' + pythonHelperTestText(STYLES.sync).replace(/\n/g, '\r\n'))).toBe(true);
    expect(isPythonHelperTest('import pytest\n\n\ndef test_drain():\n    pass\n')).toBe(false);
  });
});

describe('the helpers of a module', () => {
  const spec = { async: false, modules: {}, responseType: 'httpx.Response', iteratorType: 'Iterator[object]', optionalFloat: 'float | None', indent: '    ', newline: '\n', quote: '"' as const, lineLength: 88 };

  it('reads each helper drainguard wrote: sync or async, its budget, its byte limit, whether it bounds the network stream', () => {
    const module = [
      'import httpx',
      '',
      '',
      helperText({ ...spec, name: '_drain_response', budgetMs: 50, maxBytes: 131072 }),
      '',
      helperText({ ...spec, name: '_adrain_response', async: true, iteratorType: 'AsyncIterator[object]', budgetMs: 0, maxBytes: 4096 }),
      '',
      'def call():',
      '    pass',
      '',
    ].join('\n');
    expect(helpersInModule(module)).toEqual([
      { name: '_drain_response', async: false, timed: true, maxBytes: 131072, networkStream: true },
      { name: '_adrain_response', async: true, timed: false, maxBytes: 4096, networkStream: true },
    ]);
    expect(helpersInModule(helperText({ ...spec, name: '_drain_response', budgetMs: 0, maxBytes: 0 }))).toEqual([{ name: '_drain_response', async: false, timed: false, maxBytes: 0, networkStream: false }]);
  });

  it("leaves out someone else's function of that name and an earlier drainguard's helper", () => {
    expect(helpersInModule('def _drain_response(response, events):\n    """Mine."""\n    response.read()\n')).toEqual([]);
    const earlier = 'def _drain_response(response, events):\n    """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""\n    timer = threading.Timer(1.0, response.close)\n';
    expect(helpersInModule(earlier)).toEqual([]);
  });
});

describe('where the test goes, and in which style', () => {
  const module = `import httpx\n\n\n${helperText({ name: '_adrain_response', async: true, modules: {}, responseType: 'httpx.Response', iteratorType: 'AsyncIterator[object]', optionalFloat: 'float | None', budgetMs: 50, maxBytes: 131072, indent: '    ', newline: '\n', quote: '"', lineLength: 88 })}`;

  it("beside the module's own tests, in the folder of pytest's testpaths that mirrors its package path (an src layout)", () => {
    const dir = tempProject({
      'pyproject.toml': '[project]\nname = "mcp"\nrequires-python = ">=3.10"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      'src/mcp/__init__.py': '',
      'src/mcp/client/__init__.py': '',
      'src/mcp/client/streamable_http.py': module,
      'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef anyio_backend():\n    return "asyncio"\n',
      'tests/client/__init__.py': '',
      'tests/client/test_session.py': 'import pytest\n',
      'tests/shared/test_streamable_http.py': 'import pytest\n',
    });
    const layout = pythonTestLayout(path.join(dir, 'src/mcp/client/streamable_http.py'));
    expect(path.relative(dir, layout.path)).toBe(path.join('tests', 'client', 'test_streamable_http_drain.py'));
    expect([layout.module, layout.asyncStyle, layout.markAsync, layout.python310, layout.python311]).toEqual(['mcp.client.streamable_http', 'anyio', true, true, false]);
    expect(layout.notPickedUpBy).toBeUndefined();
  });

  it("beside an existing test of the module where no folder mirrors its package; pytest-asyncio's auto mode marks nothing", () => {
    const dir = tempProject({
      'pyproject.toml': '[project]\nname = "openai"\n\n[tool.pytest.ini_options]\nasyncio_mode = "auto"\n',
      'src/openai/__init__.py': '',
      'src/openai/_streaming.py': module,
      'tests/test_streaming.py': 'import pytest\n',
      'tests/lib/test_other.py': 'import pytest\n',
    });
    const layout = pythonTestLayout(path.join(dir, 'src/openai/_streaming.py'));
    expect(path.relative(dir, layout.path)).toBe(path.join('tests', 'test_streaming_drain.py'));
    expect([layout.asyncStyle, layout.markAsync]).toEqual(['asyncio', false]);
  });

  it("names the file as pytest's python_files does, and takes the markers the tests use most (pytest.ini)", () => {
    const dir = tempProject({
      'pytest.ini': '[pytest]\ntestpaths = checks\npython_files = *_check.py\n',
      'pkg/__init__.py': '',
      'pkg/client.py': module,
      'checks/a_check.py': 'import pytest\n\n\n@pytest.mark.trio\nasync def test_a():\n    pass\n',
      'checks/b_check.py': 'import pytest\n\n\n@pytest.mark.trio\nasync def test_b():\n    pass\n\n\n@pytest.mark.anyio\nasync def test_c():\n    pass\n',
    });
    const layout = pythonTestLayout(path.join(dir, 'pkg/client.py'));
    expect(path.relative(dir, layout.path)).toBe(path.join('checks', 'client_drain_check.py'));
    expect([layout.module, layout.asyncStyle, layout.markAsync, layout.python310]).toEqual(['pkg.client', 'trio', true, false]);
  });

  it("carries what the project's linters ask of a private import: ruff's PLC2701 (in preview), pyright's reportPrivateUsage where tests are strict", () => {
    const pyproject = [
      '[tool.ruff]',
      'preview = true',
      '[tool.ruff.lint]',
      'select = ["E", "F", "PL", "N"]',
      '[tool.ruff.lint.per-file-ignores]',
      '"docs/**" = ["PLC2701"]',
      '[tool.pyright]',
      'typeCheckingMode = "strict"',
      '',
    ].join('\n');
    const dir = tempProject({ 'pyproject.toml': pyproject, 'pkg/__init__.py': '', 'pkg/client.py': module, 'tests/test_x.py': 'import pytest\n' });
    const layout = pythonTestLayout(path.join(dir, 'pkg/client.py'));
    expect(layout.importComment).toBe('# pyright: ignore[reportPrivateUsage]  # noqa: PLC2701');
    // The MCP SDK's settings: PLC2701 not in preview, reportPrivateUsage off for tests; ruff ignoring PLC2701 for tests.
    const mcp = tempProject({
      'pyproject.toml': '[tool.ruff.lint]\nselect = ["PL"]\nignore = ["PLC2701"]\npreview = true\n[tool.pyright]\ntypeCheckingMode = "strict"\nexecutionEnvironments = [{ root = "tests", reportPrivateUsage = false }]\n',
      'pkg/__init__.py': '',
      'pkg/client.py': module,
      'tests/test_x.py': 'import pytest\n',
    });
    expect(pythonTestLayout(path.join(mcp, 'pkg/client.py')).importComment).toBe('');
  });

  it("writes nothing over a file of the user's, nor for a unittest suite, and nothing new where the test is as it would be", () => {
    const dir = tempProject({ 'pkg/__init__.py': '', 'pkg/client.py': module, 'tests/test_client_drain.py': 'def test_mine():\n    pass\n', 'setup.py': 'from setuptools import setup\n\nsetup()\n' });
    expect(planPythonHelperTest(path.join(dir, 'pkg/client.py'), module)).toMatchObject({ text: null, skipped: 'a file drainguard did not write is there; it is left as it is' });
    const unittest = tempProject({ 'pkg/__init__.py': '', 'pkg/client.py': module, 'tests/test_other.py': 'import unittest\n', 'setup.py': 'from setuptools import setup\n\nsetup()\n' });
    expect(planPythonHelperTest(path.join(unittest, 'pkg/client.py'), module)?.skipped).toMatch(/^the repository's tests are unittest's/);
    const fresh = tempProject({ 'pkg/__init__.py': '', 'pkg/client.py': module, 'setup.py': 'from setuptools import setup\n\nsetup()\n' });
    const plan = planPythonHelperTest(path.join(fresh, 'pkg/client.py'), module)!;
    expect(path.relative(fresh, plan.path)).toBe(path.join('tests', 'test_client_drain.py'));
    mkdirSync(path.dirname(plan.path), { recursive: true });
    writeFileSync(plan.path, plan.text!);
    expect(planPythonHelperTest(path.join(fresh, 'pkg/client.py'), module)).toBeNull();
    expect(planPythonHelperTest(path.join(fresh, 'pkg/client.py'), 'import httpx\n')).toBeNull();
  });
});
