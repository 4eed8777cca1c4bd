// The CLI on Python files: walking, the three formats, exit codes, fix (json, print, write).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_ID, parseFixJson, parseJson, resultFor, runCli, tempProject, writeFiles } from '../../cli/helpers.js';
import { sarifValidator } from '../../cli/sarif-schema.js';
import { loadPythonFixtures } from '../../python/fixture-cases.js';

const fixtures = new Map(loadPythonFixtures().map((fixture) => [fixture.name, fixture]));
const shape2 = fixtures.get('02-aconnect-sse-break')!;
const shape4 = fixtures.get('04-sync-generator-finally')!;
const EARLY_JS = `export async function first(url) {\n  const res = await fetch(url);\n  for await (const chunk of res.body) {\n    if (String(chunk).includes('[DONE]')) break;\n  }\n}\n`;
const EOS_PY = [
  'import httpx',
  '',
  '',
  'async def call(client: httpx.AsyncClient) -> list[str]:',
  '    out = []',
  '    async with client.stream("GET", "http://x") as response:',
  '        async for line in response.aiter_lines():',
  '            if line == "eos":',
  '                await response.aclose()',
  '                return out',
  '            out.append(line)',
  '    return out',
  '',
].join('\n');
const BROKEN_PY = 'def f(response):\n    if response.done\n        response.close()\n';

describe('drainguard lint on Python files', () => {
  it('walks .py files beside JS/TS ones and prints ESLint-shaped JSON with the Python reports', async () => {
    const dir = tempProject({ 'pkg/transport.py': shape2.input, 'pkg/stream.py': shape4.input, 'web/first.js': EARLY_JS, 'pkg/clean.py': shape2.output, 'notes.txt': shape2.input });
    const run = await runCli(['lint', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    const results = parseJson(run);
    expect(results.map((result) => path.relative(dir, result.filePath)).sort()).toEqual(['pkg/clean.py', 'pkg/stream.py', 'pkg/transport.py', 'web/first.js']);
    expect(resultFor(results, path.join(dir, 'pkg/transport.py')).messages.map((m) => [m.ruleId, m.line, m.column, m.endLine, m.endColumn])).toEqual([[RULE_ID, 12, 23, 12, 53]]);
    const [stream] = resultFor(results, path.join(dir, 'pkg/stream.py')).messages;
    expect([stream.line, stream.column]).toEqual([22, 21]);
    expect(stream.message).toMatch(/^`break` leaves the loop after the terminal event `data\.startswith\("\[DONE\]"\)` before EOF, and its `finally` closes `response`/);
    expect(resultFor(results, path.join(dir, 'pkg/clean.py')).messages).toEqual([]);
    expect(resultFor(results, path.join(dir, 'web/first.js')).messages).toHaveLength(1);
  });

  it('takes the rule options: a terminal pattern of its own makes a close after it a report, in lint as in fix', async () => {
    const dir = tempProject({ 'eos.py': EOS_PY });
    expect((await runCli(['lint', 'eos.py'], dir)).code).toBe(0);
    const run = await runCli(['lint', '--format', 'json', '--terminal-pattern', '^eos$', 'eos.py'], dir);
    expect(run.code).toBe(1);
    expect(resultFor(parseJson(run), path.join(dir, 'eos.py')).messages.map((m) => [m.line, m.column, m.endLine, m.endColumn])).toEqual([[9, 23, 9, 40]]);
    const fix = await runCli(['fix', '--dry', '--json', '--no-test', '--terminal-pattern', '^eos$'], dir);
    expect(parseFixJson(fix).files.map((file) => file.sites)).toEqual([[{ line: 9, column: 23, status: 'fixed' }]]);
  });

  it('stylish names the file, the position and the rule', async () => {
    const dir = tempProject({ 'transport.py': shape2.input });
    const run = await runCli(['lint', 'transport.py'], dir, { NO_COLOR: '1' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(path.join(dir, 'transport.py'));
    expect(run.stdout).toMatch(/^ {2}12:23 {2}error {2}`event_source\.response` is closed with `aclose\(\)`.* {2}drainguard\/no-early-stream-close$/m);
  });

  it('SARIF includes Python results and parse errors and is valid', async () => {
    const dir = tempProject({ 'src/transport.py': shape2.input, 'src/broken.py': BROKEN_PY });
    const run = await runCli(['lint', '--format=sarif'], dir);
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[] }[] }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const located = log.runs[0].results.map((result) => {
      const { artifactLocation, region } = result.locations[0].physicalLocation;
      return [result.ruleId, artifactLocation.uri, region];
    });
    expect(located.map(([ruleId, uri]) => [ruleId, uri])).toEqual([
      ['drainguard/parse-error', 'src/broken.py'],
      [RULE_ID, 'src/transport.py'],
    ]);
    expect(located[0][2]).toMatchObject({ startLine: 2, startColumn: 21 });
    expect(located[1][2]).toEqual({ startLine: 12, startColumn: 23, endLine: 12, endColumn: 53 });
  });

  it('exits 0 on clean Python and 1 on a file that does not parse, still linting the others', async () => {
    const clean = tempProject({ 'a.py': shape2.output, 'b.py': 'print("hello")\n' });
    expect((await runCli(['lint'], clean)).code).toBe(0);
    const broken = tempProject({ 'broken.py': BROKEN_PY, 'transport.py': shape2.input });
    const run = await runCli(['lint', '--format', 'json'], broken);
    expect(run.code).toBe(1);
    const results = parseJson(run);
    expect(resultFor(results, path.join(broken, 'broken.py')).messages).toEqual([
      { ruleId: null, fatal: true, severity: 2, message: "Parsing error: expected ':'", line: 2, column: 21 },
    ]);
    expect(resultFor(results, path.join(broken, 'transport.py')).messages).toHaveLength(1);
  });
});

describe('drainguard fix on Python files', () => {
  const manual = fixtures.get('11-manual-one-line-branch')!;
  const shape1 = fixtures.get('01-anyio-event-source-return')!;
  /** Each fixture in a directory of its own, with the pyproject.toml whose declarations choose its bound (anyio for a/, the socket shutdown for b/). */
  const project = () =>
    tempProject({
      'a/transport.py': shape1.input,
      'a/pyproject.toml': readFileSync(path.join(path.dirname(shape1.inputPath), 'pyproject.toml'), 'utf8'),
      'b/stream.py': shape4.input,
      'b/pyproject.toml': readFileSync(path.join(path.dirname(shape4.inputPath), 'pyproject.toml'), 'utf8'),
      'c/manual.py': manual.input,
    });

  it('--dry --json reports the sites and writes nothing; a real run writes the expected output; a second run changes nothing', async () => {
    const dir = project();
    const dry = await runCli(['fix', '--dry', '--json'], dir);
    expect(dry.code).toBe(1);
    const report = parseFixJson(dry);
    expect(report.summary).toEqual({ filesScanned: 3, sitesFound: 3, fixed: 2, manual: 1, errors: 0 });
    expect(report.files.map((file) => [path.relative(dir, file.path), file.changed, file.sites, file.test, file.framework])).toEqual([
      ['a/transport.py', true, shape1.sites, undefined, undefined],
      ['b/stream.py', true, shape4.sites, undefined, undefined],
      ['c/manual.py', false, manual.sites, undefined, undefined],
      // The test of each module's drain helper, in a tests/ folder of its project (there is none yet).
      [path.join('a', 'tests', 'test_transport_drain.py'), true, [], 'created', 'pytest'],
      [path.join('b', 'tests', 'test_stream_drain.py'), true, [], 'created', 'pytest'],
    ]);
    expect(readFileSync(path.join(dir, 'a/transport.py'), 'utf8')).toBe(shape1.input);
    expect(existsSync(path.join(dir, 'a/tests'))).toBe(false);

    const run = await runCli(['fix'], dir);
    expect(run.code).toBe(1);
    expect(readFileSync(path.join(dir, 'a/transport.py'), 'utf8')).toBe(shape1.output);
    expect(readFileSync(path.join(dir, 'b/stream.py'), 'utf8')).toBe(shape4.output);
    const test = readFileSync(path.join(dir, 'a/tests/test_transport_drain.py'), 'utf8');
    expect(test).toMatch(/^from transport import _adrain_response$/m);
    const again = await runCli(['fix', '--json'], dir);
    expect(parseFixJson(again).summary).toEqual({ filesScanned: 5, sitesFound: 1, fixed: 0, manual: 1, errors: 0 });
    expect(parseFixJson(again).files.map((file) => path.relative(dir, file.path))).toEqual(['c/manual.py']);
    expect(readFileSync(path.join(dir, 'a/tests/test_transport_drain.py'), 'utf8')).toBe(test);
  });

  it('--print shows a unified diff of the Python rewrite', async () => {
    const dir = project();
    const run = await runCli(['fix', '--dry', '--print', 'a/transport.py'], dir, { NO_COLOR: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('+++ b/a/transport.py');
    expect(run.stdout).toContain('+            sse_iterator = event_source.aiter_sse()\n+            async for sse in sse_iterator:\n');
    expect(run.stdout).toContain('+            timeout = remaining if timeout is None else min(timeout, remaining)\n');
  });

  it('--terminal-pattern, --close-method, --drain-max-bytes and --drain-wait-ms apply to Python files', async () => {
    const text = 'def first(response):\n    for line in response.iter_lines():\n        if line == "discard":\n            response.shutdown()\n            return line\n';
    const dir = tempProject({ 'custom.py': text });
    const plain = await runCli(['fix', '--dry', '--json'], dir);
    expect(parseFixJson(plain).summary.sitesFound).toBe(0);
    const run = await runCli(['fix', '--dry', '--print', '--terminal-pattern', 'discard', '--close-method', 'shutdown', '--drain-max-bytes', '4096', '--drain-wait-ms', '25', 'custom.py'], dir, { NO_COLOR: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('+    left = 4096\n');
    expect(run.stdout).toContain('+def _drain_response(response, events: Iterator[object], budget: float = 0.025) -> None:\n');
    expect(run.stdout).toContain('+            _drain_response(response, line_iterator)\n             response.shutdown()\n');
  });

  it('--print shows the test of the drain helper too, as a new file git apply creates; the human report names it on its own line', async () => {
    const dir = project();
    const run = await runCli(['fix', '--dry', '--print', 'a/transport.py'], dir, { NO_COLOR: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--- /dev/null\n+++ b/a/tests/test_transport_drain.py\n');
    expect(run.stdout).toContain('+# Tests of the drain helper, written by drainguard fix with its module (and\n');
    expect(run.stderr).toContain(`${path.join('a', 'tests', 'test_transport_drain.py')}  test of the helper module created (pytest) (not written)\n`);
    expect(existsSync(path.join(dir, 'a/tests'))).toBe(false);
  });

  it('--no-test writes no test; a file drainguard did not write where the test goes is left as it is, and the report says why', async () => {
    const dir = project();
    const none = await runCli(['fix', '--json', '--no-test', 'a/transport.py'], dir);
    expect(parseFixJson(none).files.map((file) => path.relative(dir, file.path))).toEqual(['a/transport.py']);
    expect(existsSync(path.join(dir, 'a/tests'))).toBe(false);

    const mine = 'def test_mine() -> None:\n    assert True\n';
    writeFiles(dir, { 'b/tests/test_stream_drain.py': mine });
    const run = await runCli(['fix', '--json', 'b/stream.py'], dir);
    expect(run.code).toBe(0);
    expect(parseFixJson(run).files.at(-1)).toEqual({
      path: path.join(dir, 'b/tests/test_stream_drain.py'),
      changed: false,
      sites: [],
      test: 'not written',
      note: 'a file drainguard did not write is there; it is left as it is',
    });
    expect(readFileSync(path.join(dir, 'b/tests/test_stream_drain.py'), 'utf8')).toBe(mine);
  });

  it('a file that does not parse is named with the error CPython gives, as lint names it', async () => {
    const dir = tempProject({ 'broken.py': BROKEN_PY });
    const run = await runCli(['fix', '--dry', '--json'], dir);
    expect(run.code).toBe(1);
    expect(parseFixJson(run).files).toEqual([{ path: path.join(dir, 'broken.py'), changed: false, sites: [], error: "cannot parse: 2:21 Parsing error: expected ':'" }]);
  });
});
