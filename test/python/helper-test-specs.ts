// The specs of the test of a Python drain helper: one per async style (each after a project's settings) and the helper
// variants, for test/python/helper-test.test.ts (its text and ruff, in process) and
// test/integration/python/helper-test.test.ts (CPython compiles it).
import type { PythonTestSpec } from '../../codemods/python/helper-test.js';

const ISORT = { lineLength: 88, lengthSort: false, forceSortWithinSections: false, knownFirstParty: new Set<string>(), extraStandardLibrary: new Set<string>() };
const BOUNDED = { timed: true, maxBytes: 131072, networkStream: true };

const base: PythonTestSpec = {
  module: 'pkg.client',
  helpers: [],
  http: 'httpx',
  asyncStyle: 'anyio',
  markAsync: true,
  python310: true,
  python311: true,
  importComment: '',
  isort: ISORT,
  quote: '"',
  indent: '    ',
  newline: '\n',
  lineLength: 88,
};

/** One spec per async style, and the project settings each takes after. */
export const STYLES: Record<string, PythonTestSpec> = {
  // A sync module (requests-like SDK code on httpx): plain tests.
  sync: { ...base, helpers: [{ name: '_drain_response', async: false, ...BOUNDED }] },
  // pytest-asyncio in strict mode, a project that supports Python 3.9: `from __future__`, `__anext__()`, `asyncio.TimeoutError`.
  asyncio: { ...base, helpers: [{ name: '_adrain_response', async: true, ...BOUNDED }], asyncStyle: 'asyncio', python310: false, python311: false },
  // anyio's plugin, httpx2, ruff's private-import rule and pep8-naming enabled, 120 columns (the MCP SDK's main branch, with stricter lints).
  anyio: {
    ...base,
    module: 'mcp.client.streamable_http',
    helpers: [{ name: '_adrain_response', async: true, ...BOUNDED }],
    http: 'httpx2',
    python311: false,
    importComment: '# noqa: PLC2701',
    lineLength: 120,
  },
  // pytest-trio, single quotes, 79 columns.
  trio: { ...base, helpers: [{ name: '_adrain_response', async: true, ...BOUNDED }], asyncStyle: 'trio', quote: "'", lineLength: 79 },
  // Both helpers, pytest-asyncio's auto mode (no markers), ruff's length-sort (openai-python's settings).
  'sync-and-asyncio-auto': {
    ...base,
    module: 'openai._streaming',
    helpers: [
      { name: '_drain_response', async: false, ...BOUNDED },
      { name: '_adrain_response', async: true, ...BOUNDED },
    ],
    http: 'httpx2',
    asyncStyle: 'asyncio',
    markAsync: false,
    isort: { ...ISORT, lengthSort: true, knownFirstParty: new Set(['openai', 'tests']) },
    lineLength: 120,
  },
};

/** What the other helper variants make of the test: no byte limit, no budget, neither (`--drain-timeout-ms 0 --drain-max-bytes 0`). */
export const VARIANTS: Record<string, PythonTestSpec> = {
  'time only': { ...base, helpers: [{ name: '_adrain_response', async: true, timed: true, maxBytes: 0, networkStream: true }] },
  'bytes only': { ...base, helpers: [{ name: '_drain_response', async: false, timed: false, maxBytes: 65536, networkStream: true }] },
  unbounded: { ...base, helpers: [{ name: '_adrain_response', async: true, timed: false, maxBytes: 0, networkStream: false }], asyncStyle: 'trio' },
};
