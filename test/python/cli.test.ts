// The CLI on Python files: walking, the three formats, exit codes, fix (json, print, write).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_ID, parseFixJson, parseJson, resultFor, runCli, tempProject } from '../cli/helpers.js';
import { sarifValidator } from '../cli/sarif-schema.js';
import { loadPythonFixtures } from './fixture-cases.js';

const fixtures = new Map(loadPythonFixtures().map((fixture) => [fixture.name, fixture]));
const shape2 = fixtures.get('02-aconnect-sse-break')!;
const shape4 = fixtures.get('04-sync-generator-finally')!;
const EARLY_JS = `export async function first(url) {\n  const res = await fetch(url);\n  for await (const chunk of res.body) {\n    if (String(chunk).includes('[DONE]')) break;\n  }\n}\n`;
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
    expect(located[0][2]).toMatchObject({ startLine: 2, startColumn: 5 });
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
      { ruleId: null, fatal: true, severity: 2, message: 'Parsing error: invalid syntax', line: 2, column: 5 },
    ]);
    expect(resultFor(results, path.join(broken, 'transport.py')).messages).toHaveLength(1);
  });
});

describe('drainguard fix on Python files', () => {
  it('--dry --json reports the sites and writes nothing; a real run writes the expected output; a second run changes nothing', async () => {
    const dir = tempProject({ 'transport.py': shape2.input, 'stream.py': shape4.input, 'manual.py': fixtures.get('09-manual-while-anext')!.input });
    const dry = await runCli(['fix', '--dry', '--json'], dir);
    expect(dry.code).toBe(1);
    const report = parseFixJson(dry);
    expect(report.summary).toEqual({ filesScanned: 3, sitesFound: 3, fixed: 2, manual: 1, errors: 0 });
    expect(report.files.map((file) => [path.basename(file.path), file.changed, file.sites])).toEqual([
      ['manual.py', false, fixtures.get('09-manual-while-anext')!.sites],
      ['stream.py', true, shape4.sites],
      ['transport.py', true, shape2.sites],
    ]);
    expect(readFileSync(path.join(dir, 'transport.py'), 'utf8')).toBe(shape2.input);

    const run = await runCli(['fix'], dir);
    expect(run.code).toBe(1);
    expect(readFileSync(path.join(dir, 'transport.py'), 'utf8')).toBe(shape2.output);
    expect(readFileSync(path.join(dir, 'stream.py'), 'utf8')).toBe(shape4.output);
    const again = await runCli(['fix', '--json'], dir);
    expect(parseFixJson(again).summary).toEqual({ filesScanned: 3, sitesFound: 1, fixed: 0, manual: 1, errors: 0 });
  });

  it('--print shows a unified diff of the Python rewrite', async () => {
    const dir = tempProject({ 'transport.py': shape2.input });
    const run = await runCli(['fix', '--dry', '--print'], dir, { NO_COLOR: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('+++ b/transport.py');
    expect(run.stdout).toContain('+        async for sse in (sse_iterator := event_source.aiter_sse()):');
    expect(run.stdout).toContain('+                    drain_timer = threading.Timer(1.0, drain_socket.shutdown, (socket.SHUT_RDWR,))');
  });
});
