// The Python fixture pairs in process: the rule's reports, the rewrite, its fixed point, ruff (its WebAssembly build).
// CPython compiling each input and output, and the correct files: test/integration/python/fixtures.test.ts.
import { describe, expect, it } from 'vitest';
import { rewritePython } from '../../codemods/python/rewrite.js';
import { lintPythonText } from '../../rules/python/lint.js';
import { ruffDiagnostics } from '../support/python-ruff.js';
import { loadCleanPython, loadPythonFixtures } from './fixture-cases.js';

const fixtures = loadPythonFixtures();
const RULE_ID = 'drainguard/no-early-stream-close';

describe('Python fixtures', () => {
  it('cover the shapes, each bound, and the manual and disabled variants', () => {
    expect(fixtures.map((fixture) => fixture.name)).toEqual([
      '01-anyio-event-source-return',
      '02-aconnect-sse-break',
      '03-aconnect-sse-return-reconnect',
      '04-sync-generator-finally',
      '05-async-generator-finally',
      '06-asyncio-stream-break',
      '07-trio-aclose-return',
      '08-sync-jsonrpc-reply-return',
      '09-held-iterator-while-anext',
      '10-disabled-line',
      '11-manual-one-line-branch',
      '12-manual-aiohttp',
      '13-sse-reader-iterated-directly',
      '14-flag-set-at-sentinel',
      '15-flag-set-at-sentinel-async',
      '16-nested-generator-in-with',
      '17-stop-event-caller-closes',
      '18-anyio-old-httpx-no-cancel-scope',
      '19-sync-and-async-length-sorted-imports',
      '20-stopiteration-at-done',
      '21-flag-returned-by-parser',
      '22-handed-on-to-a-writer',
      '23-flag-set-at-terminal-and-on-error',
      '24-async-local-connect-sse',
      '25-caller-owned-generator',
      '26-event-source-caller-owns',
      '27-stopiteration-in-parser',
      '28-stopiteration-lines-from-another-module',
      '29-outcome-set-in-other-method',
      '30-consumer-leaves-producer',
      '31-loop-over-handlers-before-aclose',
    ]);
  });
});

describe.each(fixtures)('Python fixture $name', (fixture) => {
  const allFixed = fixture.sites.every((site) => site.status === 'fixed');

  it('the rule reports exactly the sites of the fixture', async () => {
    const { messages } = await lintPythonText(fixture.input);
    expect(messages.map((message) => [message.line, message.column, message.ruleId])).toEqual(fixture.sites.map((site) => [site.line, site.column, RULE_ID]));
  });

  it('rewrites to the expected output with the expected site statuses', async () => {
    const result = await rewritePython(fixture.input, { filePath: fixture.inputPath });
    expect(result.output ?? fixture.input).toBe(fixture.output);
    expect(result.sites).toEqual(fixture.sites);
  });

  it('is a fixed point: a second run changes nothing', async () => {
    const again = await rewritePython(fixture.output, { filePath: fixture.inputPath });
    expect(again.output).toBeNull();
    expect(again.sites).toEqual(fixture.sites.filter((site) => site.status === 'manual'));
  });

  it(allFixed ? 'the output lints clean' : 'a manual site is left as it was and still reported', async () => {
    const { messages } = await lintPythonText(fixture.output);
    const manual = fixture.sites.filter((site) => site.status === 'manual');
    expect(messages.map((message) => [message.line, message.column])).toEqual(manual.map((site) => [site.line, site.column]));
  });

  it('ruff (E, F, I, B, with the fixture project\'s settings) finds nothing in the output it did not find in the input', () => {
    const before = ruffDiagnostics(fixture.input, fixture.ruff);
    expect(ruffDiagnostics(fixture.output, fixture.ruff)).toEqual(fixture.output === fixture.input ? before : []);
  });
});

describe.each(loadCleanPython())('correct Python $name', ({ text }) => {
  it('has nothing to report and nothing to rewrite', async () => {
    expect((await lintPythonText(text)).messages).toEqual([]);
    expect(await rewritePython(text)).toEqual({ output: null, sites: [] });
  });
});
