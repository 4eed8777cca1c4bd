import { describe, expect, it } from 'vitest';
import { rewritePython } from '../../codemods/python/rewrite.js';
import { lintPythonText } from '../../rules/python/lint.js';
import { pythonCompileError } from '../support/python-compile.js';
import { loadCleanPython, loadPythonFixtures } from './fixture-cases.js';

const fixtures = loadPythonFixtures();
const RULE_ID = 'drainguard/no-early-stream-close';

describe('Python fixtures', () => {
  it('cover the five shapes and the asyncio, trio, sync, manual and disabled variants', () => {
    expect(fixtures.map((fixture) => fixture.name)).toEqual([
      '01-anyio-event-source-return',
      '02-aconnect-sse-break',
      '03-aconnect-sse-return-reconnect',
      '04-sync-generator-finally',
      '05-async-generator-finally',
      '06-asyncio-stream-break',
      '07-trio-aclose-return',
      '08-sync-jsonrpc-reply-return',
      '09-manual-while-anext',
      '10-disabled-line',
      '11-manual-one-line-branch',
      '12-manual-aiohttp',
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
    const result = await rewritePython(fixture.input);
    expect(result.output ?? fixture.input).toBe(fixture.output);
    expect(result.sites).toEqual(fixture.sites);
  });

  it('is a fixed point: a second run changes nothing', async () => {
    const again = await rewritePython(fixture.output);
    expect(again.output).toBeNull();
    expect(again.sites).toEqual(fixture.sites.filter((site) => site.status === 'manual'));
  });

  it(allFixed ? 'the output lints clean' : 'a manual site is left as it was and still reported', async () => {
    const { messages } = await lintPythonText(fixture.output);
    const manual = fixture.sites.filter((site) => site.status === 'manual');
    expect(messages.map((message) => [message.line, message.column])).toEqual(manual.map((site) => [site.line, site.column]));
  });

  it('input and output compile with python3', () => {
    expect(pythonCompileError(fixture.input, fixture.inputPath)).toBeNull();
    expect(pythonCompileError(fixture.output, fixture.inputPath)).toBeNull();
  });
});

describe.each(loadCleanPython())('correct Python $name', ({ text }) => {
  it('has nothing to report and nothing to rewrite', async () => {
    expect((await lintPythonText(text)).messages).toEqual([]);
    expect(await rewritePython(text)).toEqual({ output: null, sites: [] });
    expect(pythonCompileError(text)).toBeNull();
  });
});

describe('drain budget', () => {
  const input = fixtures.find((fixture) => fixture.name === '02-aconnect-sse-break')!.input;

  it('is written in seconds from --drain-timeout-ms', async () => {
    const result = await rewritePython(input, { drainTimeoutMs: 250 });
    expect(result.output).toContain('drain_timer = threading.Timer(0.25, drain_socket.shutdown, (socket.SHUT_RDWR,))');
  });

  it('0 drains without a budget and says so', async () => {
    const result = await rewritePython(input, { drainTimeoutMs: 0 });
    expect(result.output).not.toContain('threading');
    expect(result.sites).toEqual([{ line: 12, column: 23, status: 'fixed', reason: 'drained without a budget (--drain-timeout-ms 0)' }]);
    expect(pythonCompileError(result.output!)).toBeNull();
  });

  it('refuses a negative budget', async () => {
    await expect(rewritePython(input, { drainTimeoutMs: -1 })).rejects.toThrow(RangeError);
  });
});

describe('imports the drain needs', () => {
  it('go on lines of their own after the last leading import, after its end-of-line comment', async () => {
    const input = 'import json  # the events are JSON\n\n\ndef call(client, url):\n    with client.stream("GET", url) as response:\n        for line in response.iter_lines():\n            if json.loads(line).get("result"):\n                return line\n';
    const { output } = await rewritePython(input);
    expect(output!.startsWith('import json  # the events are JSON\nimport socket\nimport threading\n\n\ndef call(client, url):\n')).toBe(true);
    expect(pythonCompileError(output!)).toBeNull();
  });

  it('come first in a file without imports (below a shebang or encoding line), and are not repeated when already there', async () => {
    const input = 'def call(client, url):\n    with client.stream("GET", url) as response:\n        for line in response.iter_lines():\n            if line == "[DONE]":\n                return\n';
    const { output } = await rewritePython(input);
    expect(output!.startsWith('import socket\nimport threading\n\ndef call(client, url):\n')).toBe(true);
    const withShebang = await rewritePython(`#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n${input}`);
    expect(withShebang.output!.startsWith('#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nimport socket\nimport threading\n\ndef call(')).toBe(true);
    const withImports = `import socket\nimport threading\n\n${input}`;
    const again = await rewritePython(withImports);
    expect(again.output!.match(/^import (socket|threading)$/gm)).toEqual(['import socket', 'import threading']);
  });
});

describe('a file that does not parse', () => {
  it('is a fatal lint message and a parse error for fix', async () => {
    const broken = 'async def f(response):\n    if response.done\n        await response.aclose()\n';
    const { messages } = await lintPythonText(broken);
    expect(messages).toEqual([{ ruleId: null, fatal: true, severity: 2, message: 'Parsing error: invalid syntax', line: 2, column: 5 }]);
    const rewritten = await rewritePython(broken);
    expect(rewritten.parseError).toMatch(/^invalid syntax at line \d+$/);
    expect({ ...rewritten, parseError: 'checked above' }).toEqual({ output: null, sites: [], parseError: 'checked above' });
  });
});
