// The Python rewrite's text: the budget and byte limit, imports where isort puts them, the helper
// reused by a later run, a helper name already taken, and options and errors worded as `lint` words them.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewritePython } from '../../codemods/python/rewrite.js';
import { lintPythonText } from '../../rules/python/lint.js';
import { tempProject } from '../cli/helpers.js';
import { pythonCompileError } from '../support/python-compile.js';
import { DEFAULT_RUFF, ruffDiagnostics } from '../support/python-ruff.js';
import { loadPythonFixtures } from './fixture-cases.js';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const SYNC_RETURN = lines(
  'import httpx',
  '',
  '',
  'def first(client: httpx.Client, url: str) -> str:',
  '    with client.stream("GET", url) as response:',
  '        for line in response.iter_lines():',
  '            if line == "data: [DONE]":',
  '                return line',
  '    return ""',
);

/** Rewrites `text` as the file `name` of a project made of `files`. */
async function rewriteIn(files: Record<string, string>, name: string, text: string, options = {}) {
  const dir = tempProject({ ...files, [name]: text });
  return rewritePython(text, { filePath: path.join(dir, name), ...options });
}

describe('the drain budget and byte limit', () => {
  it('are written into the helper from --drain-timeout-ms and --drain-max-bytes (0 bytes: no byte limit)', async () => {
    const result = await rewriteIn({}, 'client.py', SYNC_RETURN, { drainTimeoutMs: 250, drainMaxBytes: 0 });
    expect(result.sites).toEqual([{ line: 8, column: 17, status: 'fixed' }]);
    expect(result.output).toBe(
      lines(
        'import contextlib',
        'import socket',
        'import threading',
        'from collections.abc import Iterator',
        '',
        'import httpx',
        '',
        '',
        'def _drain_response(response: httpx.Response, events: Iterator[object]) -> None:',
        '    """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""',
        '    network_stream = response.extensions.get("network_stream")',
        '    sock = network_stream.get_extra_info("socket") if network_stream else None',
        '    if response.http_version != "HTTP/1.1" or sock is None:',
        '        return',
        '',
        '    def give_up() -> None:',
        '        # A blocked read ends only when its socket is shut down.',
        '        if not response.is_closed:',
        '            sock.shutdown(socket.SHUT_RDWR)',
        '',
        '    timer = threading.Timer(0.25, give_up)',
        '    timer.start()',
        '    try:',
        '        with contextlib.suppress(Exception):',
        '            for _ in events:',
        '                pass',
        '    finally:',
        '        timer.cancel()',
        '',
        '',
        'def first(client: httpx.Client, url: str) -> str:',
        '    with client.stream("GET", url) as response:',
        '        line_iterator = response.iter_lines()',
        '        for line in line_iterator:',
        '            if line == "data: [DONE]":',
        '                _drain_response(response, line_iterator)',
        '                return line',
        '    return ""',
      ),
    );
    expect(ruffDiagnostics(result.output!)).toEqual([]);
  });

  it('0 ms and 0 bytes drain without a bound and say so; the imports go below a shebang and an encoding line', async () => {
    const input = lines(
      '#!/usr/bin/env python3',
      '# -*- coding: utf-8 -*-',
      'async def first(client, url):',
      '    async with client.stream("GET", url) as response:',
      '        async for line in response.aiter_lines():',
      '            if line == "data: [DONE]":',
      '                return line',
    );
    const result = await rewriteIn({}, 'client.py', input, { drainTimeoutMs: 0, drainMaxBytes: 0 });
    expect(result.sites).toEqual([
      { line: 7, column: 17, status: 'fixed', reason: 'unbounded: --drain-timeout-ms 0 drains without a time budget, so a server that keeps the body open keeps the call waiting' },
    ]);
    expect(result.output).toBe(
      lines(
        '#!/usr/bin/env python3',
        '# -*- coding: utf-8 -*-',
        'import contextlib',
        'from collections.abc import AsyncIterator',
        '',
        '',
        'async def _adrain_response(response, events: AsyncIterator[object]) -> None:',
        '    """Read the rest of an HTTP/1.1 response so the connection is reused."""',
        '    if response.http_version != "HTTP/1.1":',
        '        return',
        '    with contextlib.suppress(Exception):',
        '        async for _ in events:',
        '            pass',
        '',
        '',
        'async def first(client, url):',
        '    async with client.stream("GET", url) as response:',
        '        line_iterator = response.aiter_lines()',
        '        async for line in line_iterator:',
        '            if line == "data: [DONE]":',
        '                await _adrain_response(response, line_iterator)',
        '                return line',
      ),
    );
    expect(ruffDiagnostics(result.output!)).toEqual([]);
  });

  it('refuses a negative budget', async () => {
    await expect(rewritePython(SYNC_RETURN, { drainTimeoutMs: -1 })).rejects.toThrow(RangeError);
  });
});

describe('imports and layout', () => {
  it('merges a name into a parenthesized from-import in its sorted place, and wraps a long signature as ruff formats it', async () => {
    const input = lines(
      '"""Parenthesized imports keep their layout."""',
      'from collections.abc import (',
      '    Awaitable,',
      '    Callable,',
      ')',
      '',
      'import anyio',
      'import httpx',
      '',
      '',
      'async def first(client: httpx.AsyncClient, done: Callable[[str], Awaitable[bool]]):',
      '    async with client.stream("GET", "/events") as response:',
      '        async for line in response.aiter_lines():',
      '            if await done(line):',
      '                continue',
      '            if line == "data: [DONE]":',
      '                break',
      '    await anyio.sleep(0)',
    );
    const project = { 'pyproject.toml': lines('[project]', 'requires-python = ">=3.10"', 'dependencies = ["anyio>=4", "httpx>=0.27"]') };
    const result = await rewriteIn(project, 'client.py', input);
    expect(result.sites).toEqual([{ line: 17, column: 17, status: 'fixed' }]);
    expect(result.output).toBe(
      lines(
        '"""Parenthesized imports keep their layout."""',
        'import contextlib',
        'from collections.abc import (',
        '    AsyncIterator,',
        '    Awaitable,',
        '    Callable,',
        ')',
        '',
        'import anyio',
        'import httpx',
        '',
        '',
        'async def _adrain_response(',
        '    response: httpx.Response, events: AsyncIterator[object]',
        ') -> None:',
        '    """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""',
        '    if response.http_version != "HTTP/1.1":',
        '        return',
        '    limit = response.num_bytes_downloaded + 131072',
        '    with anyio.move_on_after(1.0), contextlib.suppress(Exception):',
        '        async for _ in events:',
        '            if response.num_bytes_downloaded > limit:',
        '                break',
        '',
        '',
        'async def first(client: httpx.AsyncClient, done: Callable[[str], Awaitable[bool]]):',
        '    async with client.stream("GET", "/events") as response:',
        '        line_iterator = response.aiter_lines()',
        '        async for line in line_iterator:',
        '            if await done(line):',
        '                continue',
        '            if line == "data: [DONE]":',
        '                await _adrain_response(response, line_iterator)',
        '                break',
        '    await anyio.sleep(0)',
      ),
    );
    expect(ruffDiagnostics(result.output!)).toEqual([]);
  });

  it("keeps the file's quotes, indentation and CRLF line endings", async () => {
    const input = lines(
      'import httpx',
      '',
      '',
      'def first(client, url):',
      "  with client.stream('GET', url) as response:",
      '    for line in response.iter_lines():',
      "      if line == 'data: [DONE]':",
      '        return line',
    ).replace(/\n/g, '\r\n');
    const { output } = await rewriteIn({}, 'client.py', input, { drainMaxBytes: 0 });
    expect(output!.split('\r\n').slice(8, 14)).toEqual([
      'def _drain_response(response: httpx.Response, events: Iterator[object]) -> None:',
      '  """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""',
      "  network_stream = response.extensions.get('network_stream')",
      "  sock = network_stream.get_extra_info('socket') if network_stream else None",
      "  if response.http_version != 'HTTP/1.1' or sock is None:",
      '    return',
    ]);
    expect(output!.replace(/\r\n/g, '')).not.toContain('\n');
    expect(pythonCompileError(output!)).toBeNull();
  });
});

describe('a later run', () => {
  it('reuses the helper an earlier run wrote, for a new site in the same module', async () => {
    const fixture = loadPythonFixtures().find((item) => item.name === '08-sync-jsonrpc-reply-return')!;
    const added = lines(
      '',
      '',
      'def first_line(client: httpx.Client, url: str) -> str:',
      '    with client.stream("GET", url) as response:',
      '        for line in response.iter_lines():',
      '            if line == "[DONE]":',
      '                return line',
      '    return ""',
    );
    const result = await rewritePython(fixture.output + added, { filePath: fixture.inputPath });
    expect(result.sites).toEqual([{ line: 50, column: 17, status: 'fixed' }]);
    expect(result.output).toBe(
      fixture.output +
        lines(
          '',
          '',
          'def first_line(client: httpx.Client, url: str) -> str:',
          '    with client.stream("GET", url) as response:',
          '        line_iterator = response.iter_lines()',
          '        for line in line_iterator:',
          '            if line == "[DONE]":',
          '                _drain_response(response, line_iterator)',
          '                return line',
          '    return ""',
        ),
    );
  });

  it('leaves a site manual when the module has a function of its own under the helper\'s name', async () => {
    const input = `${SYNC_RETURN}\n\ndef _drain_response(response, events):\n    return None\n`;
    const result = await rewriteIn({}, 'client.py', input);
    expect(result).toEqual({
      output: null,
      sites: [{ line: 8, column: 17, status: 'manual', reason: 'the module defines its own `_drain_response`: rename it, or drain this site by hand' }],
    });
  });
});

describe('rule options and syntax errors', () => {
  it('--terminal-pattern and --close-method apply to Python, in lint and in fix', async () => {
    const input = lines(
      'def first(response):',
      '    for line in response.iter_lines():',
      '        if line == "discard":',
      '            response.shutdown()',
      '            return line',
    );
    const ruleOptions = { terminalPatterns: ['discard'], closeMethods: ['shutdown'] };
    expect((await lintPythonText(input)).messages).toEqual([]);
    expect((await lintPythonText(input, { ruleOptions })).messages.map((message) => [message.line, message.column])).toEqual([[4, 13]]);
    const result = await rewriteIn({}, 'client.py', input, { ruleOptions });
    expect(result.sites).toEqual([{ line: 4, column: 13, status: 'fixed' }]);
    expect(result.output).toContain('            _drain_response(response, line_iterator)\n            response.shutdown()\n');
  });

  it('a file that does not parse: fix words the error as lint does, both as CPython names it', async () => {
    const broken = lines('async def f(response):', '    if response.done', '        await response.aclose()');
    expect((await lintPythonText(broken)).messages).toEqual([{ ruleId: null, fatal: true, severity: 2, message: "Parsing error: expected ':'", line: 2, column: 21 }]);
    expect(await rewritePython(broken)).toEqual({ output: null, sites: [], parseError: "2:21 Parsing error: expected ':'" });
    expect(pythonCompileError(broken)).toContain("SyntaxError: expected ':'");
  });
});

describe('ruff on the helper itself', () => {
  it('is clean with E, F, I and B at ruff\'s defaults, in each of its forms', async () => {
    const asyncInput = lines(
      'import httpx',
      '',
      '',
      'async def first(client: httpx.AsyncClient, url: str) -> str:',
      '    async with client.stream("GET", url) as response:',
      '        async for line in response.aiter_lines():',
      '            if line == "data: [DONE]":',
      '                return line',
      '    return ""',
    );
    const declarations: Record<string, string> = {
      socket: '[project]\ndependencies = ["httpx"]\n',
      anyio: '[project]\ndependencies = ["anyio>=4", "httpx>=0.27"]\n',
      asyncio: '[project]\nrequires-python = ">=3.11"\ndependencies = ["httpx>=0.27"]\n',
    };
    for (const [bound, pyproject] of Object.entries(declarations)) {
      const text = bound === 'asyncio' ? `import asyncio\n\n${asyncInput}` : asyncInput;
      const { output } = await rewriteIn({ 'pyproject.toml': pyproject }, 'client.py', text);
      expect(output, bound).toContain(bound === 'socket' ? 'threading.Timer(1.0, give_up)' : bound === 'anyio' ? 'with anyio.move_on_after(1.0), contextlib.suppress(Exception):' : 'async with asyncio.timeout(1.0):');
      expect(ruffDiagnostics(output!, DEFAULT_RUFF), bound).toEqual([]);
    }
  });
});
