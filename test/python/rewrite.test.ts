// The Python rewrite's text: the budget and byte limit, imports where isort puts them, the helper
// reused by a later run, a helper name already taken, and options and errors worded as `lint` words them; ruff (its
// WebAssembly build, in process) on the helper. CPython on the same rewrites: test/integration/python/rewrite.test.ts.
import { describe, expect, it } from 'vitest';
import { rewritePython } from '../../codemods/python/rewrite.js';
import { lintPythonText } from '../../rules/python/lint.js';
import { DEFAULT_RUFF, ruffDiagnostics } from '../support/python-ruff.js';
import { loadPythonFixtures } from './fixture-cases.js';
import { CRLF_INPUT, UNPARSABLE, helperForms, lines, rewriteIn } from './rewrite-cases.js';

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

describe('the drain budget and byte limit', () => {
  it('are written into the helper from --drain-wait-ms (the default budget, at most --drain-timeout-ms) and --drain-max-bytes (0 bytes: no byte limit)', async () => {
    const result = await rewriteIn({}, 'client.py', SYNC_RETURN, { drainWaitMs: 20, drainMaxBytes: 0 });
    expect(result.sites).toEqual([{ line: 8, column: 17, status: 'fixed' }]);
    expect(result.output).toBe(
      lines(
        'import contextlib',
        'import time',
        'from collections.abc import Iterator',
        'from typing import Optional',
        '',
        'import httpx',
        '',
        '',
        'def _drain_response(',
        '    response: httpx.Response, events: Iterator[object], budget: float = 0.02',
        ') -> None:',
        '    """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""',
        "    # Every read of the body goes through the connection's network stream: during the",
        '    # drain its reads stop at the deadline, however the bytes parse, and httpx then',
        '    # closes the connection as the close after the drain would.',
        '    stream = response.extensions.get("network_stream")',
        '    if response.http_version != "HTTP/1.1" or stream is None:',
        '        return',
        '    read = stream.read',
        '    deadline = time.monotonic() + budget',
        '',
        '    def bounded_read(max_bytes: int, timeout: Optional[float] = None) -> bytes:',
        "        # Past EOF the connection is back in the pool: its reads are not the drain's.",
        '        if not response.is_closed:',
        '            remaining = deadline - time.monotonic()',
        '            if remaining <= 0:',
        '                raise TimeoutError',
        '            timeout = remaining if timeout is None else min(timeout, remaining)',
        '        data: bytes = read(max_bytes, timeout)',
        '        return data',
        '',
        '    stream.read = bounded_read',
        '    try:',
        '        with contextlib.suppress(Exception):',
        '            for _ in events:',
        '                pass',
        '    finally:',
        '        stream.read = read',
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
    const capped = await rewriteIn({}, 'client.py', SYNC_RETURN, { drainTimeoutMs: 30 });
    expect(capped.output).toContain('budget: float = 0.03');
    const whole = await rewriteIn({}, 'client.py', SYNC_RETURN, { drainWaitMs: 0 });
    expect(whole.output).toContain('budget: float = 1.0');
  });

  it('0 ms: no time bound, said on every site; the byte limit alone is still counted at the network stream', async () => {
    const input = lines(
      'async def first(client, url):',
      '    async with client.stream("GET", url) as response:',
      '        async for line in response.aiter_lines():',
      '            if line == "data: [DONE]":',
      '                return line',
    );
    const result = await rewriteIn({}, 'client.py', input, { drainTimeoutMs: 0 });
    expect(result.sites).toEqual([
      { line: 5, column: 17, status: 'fixed', reason: 'unbounded: --drain-timeout-ms 0 drains without a time budget, so a server that keeps the body open keeps the call waiting' },
    ]);
    expect(result.output).toBe(
      lines(
        'import contextlib',
        'from collections.abc import AsyncIterator',
        '',
        '',
        'async def _adrain_response(response, events: AsyncIterator[object]) -> None:',
        '    """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""',
        "    # Every read of the body goes through the connection's network stream: during the",
        '    # drain its reads stop at the byte limit, however the bytes parse, and httpx then',
        '    # closes the connection as the close after the drain would.',
        '    stream = response.extensions.get("network_stream")',
        '    if response.http_version != "HTTP/1.1" or stream is None:',
        '        return',
        '    read = stream.read',
        '    left = 131072',
        '',
        '    async def bounded_read(max_bytes, timeout=None):',
        '        nonlocal left',
        "        # Past EOF the connection is back in the pool: its reads are not the drain's.",
        '        if not response.is_closed:',
        '            if left <= 0:',
        '                raise TimeoutError',
        '            max_bytes = min(max_bytes, left)',
        '        data = await read(max_bytes, timeout)',
        '        left -= len(data)',
        '        return data',
        '',
        '    stream.read = bounded_read',
        '    try:',
        '        with contextlib.suppress(Exception):',
        '            async for _ in events:',
        '                pass',
        '    finally:',
        '        stream.read = read',
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

describe('which budget a site gets', () => {
  const reader = (head: string, hand: string, tail = '') =>
    lines(
      'import httpx',
      '',
      '',
      `${head}`,
      '    with client.stream("GET", url) as response:',
      '        for line in response.iter_lines():',
      '            if line == "data: [DONE]":',
      '                break',
      `            ${hand}`,
      ...(tail ? [tail] : []),
    );

  it('the whole budget where the loop handed its messages on and the function returns nothing; the short wait everywhere else', async () => {
    const handed = await rewriteIn({}, 'client.py', reader('def pump(client: httpx.Client, url: str, queue) -> None:', 'queue.put_nowait(line)'));
    expect(handed.sites).toEqual([{ line: 8, column: 17, status: 'fixed', reason: 'drains after the loop handed its messages on to `queue`, so the caller does not wait for it: up to 1000 ms (--drain-timeout-ms)' }]);
    expect(handed.output).toContain('                _drain_response(response, line_iterator, budget=1.0)\n');
    const given = await rewriteIn({}, 'client.py', reader('def pump(client: httpx.Client, url: str, handle, self) -> None:', 'handle(line, self.read_stream_writer)'));
    expect(given.sites[0].reason).toBe('drains after the loop handed its messages on to `self.read_stream_writer`, so the caller does not wait for it: up to 1000 ms (--drain-timeout-ms)');
    // A generator's consumer waits for it; so does the caller of a function that returns a value; a client's send() is no hand-over.
    for (const [head, hand, tail] of [
      ['def pump(client: httpx.Client, url: str, queue):', 'yield queue.put_nowait(line)', ''],
      ['def pump(client: httpx.Client, url: str, queue) -> int:', 'queue.put_nowait(line)', '    return 1'],
      ['def pump(client: httpx.Client, url: str) -> None:', 'client.send(client.build_request("POST", url, content=line))', ''],
    ]) {
      const inline = await rewriteIn({}, 'client.py', reader(head, hand, tail));
      expect(inline.sites, head).toEqual([{ line: 8, column: 17, status: 'fixed' }]);
      expect(inline.output, head).toContain('                _drain_response(response, line_iterator)\n');
    }
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
        'import time',
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
        '    response: httpx.Response, events: AsyncIterator[object], budget: float = 0.05',
        ') -> None:',
        '    """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""',
        "    # Every read of the body goes through the connection's network stream: during the",
        '    # drain its reads stop at the byte limit or the deadline, however the bytes parse,',
        '    # and httpx then closes the connection as the close after the drain would.',
        '    stream = response.extensions.get("network_stream")',
        '    if response.http_version != "HTTP/1.1" or stream is None:',
        '        return',
        '    read = stream.read',
        '    deadline = time.monotonic() + budget',
        '    left = 131072',
        '',
        '    async def bounded_read(max_bytes: int, timeout: float | None = None) -> bytes:',
        '        nonlocal left',
        "        # Past EOF the connection is back in the pool: its reads are not the drain's.",
        '        if not response.is_closed:',
        '            remaining = deadline - time.monotonic()',
        '            if remaining <= 0 or left <= 0:',
        '                raise TimeoutError',
        '            max_bytes = min(max_bytes, left)',
        '            timeout = remaining if timeout is None else min(timeout, remaining)',
        '        data: bytes = await read(max_bytes, timeout)',
        '        left -= len(data)',
        '        return data',
        '',
        '    stream.read = bounded_read',
        '    try:',
        '        with contextlib.suppress(Exception):',
        '            async for _ in events:',
        '                pass',
        '    finally:',
        '        stream.read = read',
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
    const { output } = await rewriteIn({}, 'client.py', CRLF_INPUT, { drainMaxBytes: 0 });
    expect(output!.split('\r\n').slice(8, 30)).toEqual([
      'def _drain_response(',
      '  response: httpx.Response, events: Iterator[object], budget: float = 0.05',
      ') -> None:',
      '  """Read the rest of an HTTP/1.1 response (bounded) so the connection is reused."""',
      "  # Every read of the body goes through the connection's network stream: during the",
      '  # drain its reads stop at the deadline, however the bytes parse, and httpx then closes',
      '  # the connection as the close after the drain would.',
      "  stream = response.extensions.get('network_stream')",
      "  if response.http_version != 'HTTP/1.1' or stream is None:",
      '    return',
      '  read = stream.read',
      '  deadline = time.monotonic() + budget',
      '',
      '  def bounded_read(max_bytes: int, timeout: Optional[float] = None) -> bytes:',
      "    # Past EOF the connection is back in the pool: its reads are not the drain's.",
      '    if not response.is_closed:',
      '      remaining = deadline - time.monotonic()',
      '      if remaining <= 0:',
      '        raise TimeoutError',
      '      timeout = remaining if timeout is None else min(timeout, remaining)',
      '    data: bytes = read(max_bytes, timeout)',
      '    return data',
    ]);
    expect(output!.replace(/\r\n/g, '')).not.toContain('\n');
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
    expect(result.sites).toEqual([{ line: 60, column: 17, status: 'fixed' }]);
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

  it('passes the budget a new site wants where the helper an earlier run wrote has another default', async () => {
    const fixture = loadPythonFixtures().find((item) => item.name === '08-sync-jsonrpc-reply-return')!;
    const added = lines('', '', 'def first_line(client: httpx.Client, url: str) -> str:', '    with client.stream("GET", url) as response:', '        for line in response.iter_lines():', '            if line == "[DONE]":', '                return line', '    return ""');
    const result = await rewritePython(fixture.output + added, { filePath: fixture.inputPath, drainWaitMs: 20 });
    expect(result.output).toContain('                _drain_response(response, line_iterator, budget=0.02)\n');
  });

  it("reuses an earlier drainguard version's helper as it is, and says that it counts parsed events", async () => {
    const earlier = lines(
      'import contextlib',
      'from collections.abc import AsyncIterator',
      '',
      'import anyio',
      'import httpx',
      '',
      '',
      'async def _adrain_response(response: httpx.Response, events: AsyncIterator[object]) -> None:',
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
      'async def first(client: httpx.AsyncClient, url: str) -> str:',
      '    async with client.stream("GET", url) as response:',
      '        async for line in response.aiter_lines():',
      '            if line == "data: [DONE]":',
      '                return line',
      '    return ""',
    );
    const result = await rewriteIn({}, 'client.py', earlier);
    expect(result.sites).toEqual([
      {
        line: 23,
        column: 17,
        status: 'fixed',
        reason:
          "bounded by time only: the module's drain helper is an earlier drainguard's, which counts the parsed events it reads, not the body's bytes, and whose caller waits up to its whole budget; delete it, undo its calls and run drainguard fix again",
      },
    ]);
    expect(result.output).toContain('                await _adrain_response(response, line_iterator)\n                return line\n');
    expect(result.output!.split('async def _adrain_response').length).toBe(2);
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
    const broken = UNPARSABLE;
    expect((await lintPythonText(broken)).messages).toEqual([{ ruleId: null, fatal: true, severity: 2, message: "Parsing error: expected ':'", line: 2, column: 21 }]);
    expect(await rewritePython(broken)).toEqual({ output: null, sites: [], parseError: "2:21 Parsing error: expected ':'" });
  });
});

describe('ruff on the helper itself', () => {
  it('is clean with E, F, I and B at ruff\'s defaults, in each of its forms', async () => {
    for await (const { pyproject, option, output } of helperForms()) {
      expect(ruffDiagnostics(output!, DEFAULT_RUFF), `${pyproject} ${JSON.stringify(option)}\n${output}`).toEqual([]);
    }
  });
});
