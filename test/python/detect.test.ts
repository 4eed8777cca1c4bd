import { describe, expect, it } from 'vitest';
import { mayReportPython } from '../../rules/python/analyze.js';
import { lintPythonText } from '../../rules/python/lint.js';

/** `(line, column)` of each report, with the pre-filter off so that every case is really analysed; the pre-filter keeps every case reported on. */
async function sites(code: string): Promise<[number, number][]> {
  const { messages } = await lintPythonText(code, { prefilter: false });
  if (messages.length > 0) expect(mayReportPython(code)).toBe(true);
  return messages.map((message) => {
    expect(message.fatal).toBeUndefined();
    return [message.line, message.column];
  });
}

const lines = (...code: string[]) => `${code.join('\n')}\n`;

describe('Python: what is reported', () => {
  it.each([
    [
      'isinstance with a union of JSON-RPC reply classes',
      lines(
        'async def f(response, parse):',
        '    async for line in response.aiter_lines():',
        '        message = parse(line)',
        '        if isinstance(message, JSONRPCResponse | JSONRPCError):',
        '            await response.aclose()',
        '            return message',
      ),
      [[5, 19]],
    ],
    [
      'a disjunction with a terminal alternative is a terminal event even next to an error',
      lines(
        'async def f(resp):',
        '    async for event in resp.aiter_lines():',
        '        if event == "message_stop" or event == "error":',
        '            await resp.aclose()',
      ),
      [[4, 19]],
    ],
    [
      'a negated test: the completion branch is what follows `if not done: continue`',
      lines(
        'def f(response):',
        '    for line in response.iter_lines():',
        '        if not line.endswith("[DONE]"):',
        '            continue',
        '        response.close()',
        '        break',
      ),
      [[5, 9]],
    ],
    [
      'a while loop left when its not-finished flag turns false, then a close',
      lines(
        'async def f(response):',
        '    lines = response.aiter_lines()',
        '    finished = False',
        '    while not finished:',
        '        line = await lines.__anext__()',
        '        finished = line == "[DONE]"',
        '    await response.aclose()',
      ),
      [[7, 11]],
    ],
    [
      'a match case on the stop event',
      lines(
        'async def f(response):',
        '    async for event in response.aiter_lines():',
        '        match event:',
        '            case "message_stop":',
        '                await response.aclose()',
        '                return',
        '            case _:',
        '                pass',
      ),
      [[5, 23]],
    ],
    [
      'aiohttp: release() of the response of `async with session.get(...)`',
      lines(
        'async def f(session, url):',
        '    async with session.get(url) as r:',
        '        async for chunk in r.content:',
        '            if chunk == b"data: [DONE]\\n":',
        '                r.release()',
        '                break',
      ),
      [[5, 17]],
    ],
    [
      'requests with stream=True: a return out of the with block',
      lines(
        'def f(requests, url):',
        '    with requests.get(url, stream=True) as r:',
        '        for line in r.iter_lines():',
        '            if line == b"data: [DONE]":',
        '                return True',
      ),
      [[5, 17]],
    ],
    [
      'a close in try/else after the reply, the except only logs',
      lines(
        'async def f(response, handle, log):',
        '    async for sse in response.aiter_lines():',
        '        if is_complete := await handle(sse):',
        '            try:',
        '                await handle(None)',
        '            except Exception:',
        '                log()',
        '            else:',
        '                await response.aclose()',
        '                return',
      ),
      [[9, 23]],
    ],
    [
      'a return that leaves the loop through a finally that closes',
      lines(
        'def f(response, handle):',
        '    try:',
        '        for line in response.iter_lines():',
        '            if line == "[DONE]":',
        '                return handle()',
        '    finally:',
        '        response.close()',
      ),
      [[5, 17]],
    ],
    [
      'a flag set at the sentinel, the response closed on the flag after the loop',
      lines(
        'def events(response, sentinel):',
        '    discard = False',
        '    for line in response.iter_lines():',
        '        if sentinel and line == sentinel:',
        '            discard = True',
        '            break',
        '        yield line',
        '    if discard:',
        '        response.close()',
      ),
      [[9, 9]],
    ],
    [
      'a nested generator that returns at [DONE] inside the with that owns the response',
      lines(
        'def stream(client, url):',
        '    with client.stream("GET", url) as r:',
        '        def _iter():',
        '            for text in r.iter_lines():',
        '                if text == "[DONE]":',
        '                    return',
        '                yield text',
        '        yield from _iter()',
      ),
      [[6, 21]],
    ],
    [
      'a loop broken on a stop event in a function whose caller closes the response it passed',
      lines(
        'def read_until_stop(stream):',
        '    for line in stream.iter_lines():',
        '        if line == "message_stop":',
        '            break',
        '',
        'def ask(client, request):',
        '    response = client.send(request, stream=True)',
        '    try:',
        '        read_until_stop(response)',
        '    finally:',
        '        response.close()',
      ),
      [[4, 13]],
    ],
    [
      'a flag named done set at the terminal event only, the close on the flag after the loop',
      lines(
        'def f(response):',
        '    done = False',
        '    for line in response.iter_lines():',
        '        if line == "data: [DONE]":',
        '            done = True',
        '            break',
        '    if done:',
        '        response.close()',
      ),
      [[8, 9]],
    ],
    [
      'a flag also set on an error path is no terminal event, but the terminal test before it still is',
      lines(
        'def f(client, url):',
        '    with client.stream("GET", url) as response:',
        '        complete = False',
        '        try:',
        '            for line in response.iter_lines():',
        '                if line == "data: [DONE]":',
        '                    complete = True',
        '                    break',
        '        except httpx.ReadError:',
        '            complete = True',
        '        if complete:',
        '            response.close()',
      ),
      [[8, 21]],
    ],
    [
      'a close on a parameter known as a response only by the caller that passes its own',
      lines(
        'def handle(s):',
        '    for line in s.iter_lines():',
        '        if line == "data: [DONE]":',
        '            s.close()',
        '        print(line)',
        '',
        'def main(client):',
        '    with client.stream("GET", "/x") as response:',
        '        handle(response)',
      ),
      [[4, 13]],
    ],
    [
      'a close in a method on the attribute the constructor keeps the caller\'s response in',
      lines(
        'class Reader:',
        '    def __init__(self, src):',
        '        self.src = src',
        '',
        '    def finish(self):',
        '        for line in self.src.iter_lines():',
        '            if line == "data: [DONE]":',
        '                self.src.close()',
        '',
        'def main(client):',
        '    with client.stream("GET", "/x") as response:',
        '        Reader(response).finish()',
      ),
      [[8, 17]],
    ],
    [
      'StopIteration raised at the terminal event in __next__ over the caller\'s response, a class with no loop',
      lines(
        'class Events:',
        '    def __init__(self, src):',
        '        self.src = src',
        '',
        '    def __next__(self):',
        '        lines = self.src.iter_lines()',
        '        line = next(lines)',
        '        if line == "data: [DONE]":',
        '            raise StopIteration',
        '        return line',
        '',
        'def main(client):',
        '    with client.stream("GET", "/x") as response:',
        '        for item in Events(response):',
        '            print(item)',
      ),
      [[9, 13]],
    ],
    [
      'EOF is per response, as in JavaScript: reading another response to its end leaves this one pending',
      lines(
        'async def f(client):',
        '    async with client.stream("GET", "/a") as first:',
        '        async with client.stream("GET", "/b") as second:',
        '            line = await second.aiter_lines().__anext__()',
        '            if line == "[DONE]":',
        '                async for chunk in first.aiter_bytes():',
        '                    pass',
        '                await second.aclose()',
      ),
      [[8, 23]],
    ],
  ])('%s', async (_name, code, expected) => {
    expect(await sites(code)).toEqual(expected);
  });
});

describe('Python: what is not reported', () => {
  it.each([
    [
      'the stream read to its end by a drain function, or by aread(), before the close',
      lines(
        'async def f(response, drain):',
        '    async for line in response.aiter_lines():',
        '        if line == "[DONE]":',
        '            await drain_response(response)',
        '            await response.aclose()',
        '            return',
        '        if line == "message_stop":',
        '            await response.aread()',
        '            await response.aclose()',
        '            return',
      ),
    ],
    [
      'a caller closing a response the function it called read to its end',
      lines(
        'def read_all(stream):',
        '    return [line for line in stream.iter_lines()]',
        '',
        'def ask(client, request):',
        '    response = client.send(request, stream=True)',
        '    try:',
        '        return read_all(response)',
        '    finally:',
        '        response.close()',
      ),
    ],
    [
      'a close after the loop ran out (EOF)',
      lines(
        'async def f(response):',
        '    done = False',
        '    async for line in response.aiter_lines():',
        '        if line == "[DONE]":',
        '            done = True',
        '    await response.aclose()',
      ),
    ],
    [
      'a close in an except block, cancellation included',
      lines(
        'async def f(response, handle):',
        '    async for line in response.aiter_lines():',
        '        if line == "[DONE]":',
        '            try:',
        '                await handle()',
        '            except (asyncio.CancelledError, anyio.get_cancelled_exc_class()):',
        '                await response.aclose()',
        '                raise',
      ),
    ],
    [
      'a branch that raises',
      lines(
        'def f(response):',
        '    for line in response.iter_lines():',
        '        if line.startswith("[DONE]") and "partial" in line:',
        '            response.close()',
        '            raise ValueError(line)',
      ),
    ],
    [
      'a test about errors, status or a clock',
      lines(
        'async def f(response, started):',
        '    async for line in response.aiter_lines():',
        '        if line == "event: error":',
        '            await response.aclose()',
        '            return',
        '        if response.status_code != 200:',
        '            await response.aclose()',
        '            return',
        '        if time.monotonic() - started > 5:',
        '            await response.aclose()',
        '            return',
      ),
    ],
    [
      'a finally guarded by a not-finished flag',
      lines(
        'async def f(response):',
        '    finished = False',
        '    try:',
        '        async for line in response.aiter_lines():',
        '            if line == "[DONE]":',
        '                finished = True',
        '    finally:',
        '        if not finished:',
        '            await response.aclose()',
      ),
    ],
    [
      'a break out of an inner loop that does not leave the read loop',
      lines(
        'async def f(client, url):',
        '    async with client.stream("GET", url) as response:',
        '        async for line in response.aiter_lines():',
        '            if line == "[DONE]":',
        '                while True:',
        '                    break',
      ),
    ],
    [
      'a break out of a loop over something else inside the stream\'s with block',
      lines(
        'def f(client, url, jobs):',
        '    with client.stream("GET", url) as response:',
        '        for job in jobs:',
        '            if job.done:',
        '                break',
        '        return response.read()',
      ),
    ],
    [
      'closes of things that are not responses (a file, a timer)',
      lines(
        'def f(path, timer):',
        '    for line in open(path):',
        '        if line == "[DONE]":',
        '            timer.close()',
        '            break',
      ),
    ],
    [
      'the close inside a nested function is that function\'s business',
      lines(
        'async def f(response):',
        '    async for line in response.aiter_lines():',
        '        if line == "[DONE]":',
        '            async def later():',
        '                await response.aclose()',
        '            return later',
      ),
    ],
    [
      'a flag named done set in an except block, the close on the flag',
      lines(
        'async def f(client, url):',
        '    async with client.stream("GET", url) as response:',
        '        done = False',
        '        try:',
        '            async for line in response.aiter_lines():',
        '                print(line)',
        '        except httpx.ReadError:',
        '            done = True',
        '        if done:',
        '            await response.aclose()',
      ),
    ],
    [
      'a flag named done set on an error event, the close on the flag',
      lines(
        'async def f(client, url):',
        '    async with client.stream("GET", url) as response:',
        '        done = False',
        '        async for line in response.aiter_lines():',
        '            if line.startswith("event: error"):',
        '                done = True',
        '                break',
        '        if done:',
        '            await response.aclose()',
      ),
    ],
    [
      'a flag named finished set when another worker failed, the loop left on it',
      lines(
        'def f(client, url, failed):',
        '    with client.stream("GET", url) as response:',
        '        finished = False',
        '        for line in response.iter_lines():',
        '            if failed.is_set():',
        '                finished = True',
        '            if finished:',
        '                break',
      ),
    ],
    [
      'a flag named finished set from a failure, the close on the flag',
      lines(
        'def f(response, failed):',
        '    for line in response.iter_lines():',
        '        finished = failed.is_set()',
        '        if finished:',
        '            response.close()',
        '            return',
      ),
    ],
    [
      'a flag named done set at an abort (cancel), the close on the flag',
      lines(
        'def f(response, cancel):',
        '    done = False',
        '    for line in response.iter_lines():',
        '        if cancel():',
        '            done = True',
        '            break',
        '    if done:',
        '        response.close()',
      ),
    ],
    [
      'a flag named complete set outside any terminal branch',
      lines(
        'def f(response):',
        '    complete = False',
        '    for line in response.iter_lines():',
        '        complete = True',
        '        if complete:',
        '            response.close()',
        '            return',
      ),
    ],
    [
      'comparing with None is neutral',
      lines(
        'async def f(response):',
        '    async for line in response.aiter_lines():',
        '        if line.finish_reason is not None:',
        '            await response.aclose()',
        '            return',
      ),
    ],
    [
      'the response read to its end under another name: an SSE source and its `.response`, an iterator bound to a name',
      lines(
        'async def f(client):',
        '    async with aconnect_sse(client, "GET", "/") as event_source:',
        '        async for sse in event_source.aiter_sse():',
        '            if sse.data == "[DONE]":',
        '                finished = True',
        '        if finished:',
        '            await event_source.response.aclose()',
        '',
        'def g(response):',
        '    lines = response.iter_lines()',
        '    done = False',
        '    for line in lines:',
        '        if line == "[DONE]":',
        '            done = True',
        '    if done:',
        '        response.close()',
        '',
        'async def h(response):',
        '    source = EventSource(response)',
        '    async for event in source.aiter_sse():',
        '        if event.event == "message_stop":',
        '            stop = True',
        '    await response.aclose()',
      ),
    ],
  ])('%s', async (_name, code) => {
    expect(await sites(code)).toEqual([]);
  });
});

describe('Python: reports', () => {
  it('a close from outside the function names what closes it', async () => {
    const nested = lines(
      'def stream(client, url):',
      '    with client.stream("GET", url) as r:',
      '        def _iter():',
      '            for text in r.iter_lines():',
      '                if text == "[DONE]":',
      '                    return',
      '                yield text',
      '        yield from _iter()',
    );
    const caller = lines(
      'def read_until_stop(stream):',
      '    for line in stream.iter_lines():',
      '        if line == "message_stop":',
      '            break',
      '',
      'def ask(client, request):',
      '    response = client.send(request, stream=True)',
      '    try:',
      '        read_until_stop(response)',
      '    finally:',
      '        response.close()',
    );
    const [inner] = (await lintPythonText(nested)).messages;
    expect(inner.message).toBe(
      '`return` leaves the loop after the terminal event `text == "[DONE]"` before EOF, and the `with` of `stream` closes `r`: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).',
    );
    const [called] = (await lintPythonText(caller)).messages;
    expect(called.message).toBe(
      '`break` leaves the loop after the terminal event `line == "message_stop"` before EOF, and the caller `ask` (line 9) closes `stream`: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).',
    );
  });

  it('one report per site: an explicit close followed by the jump that leaves the loop is reported at the close', async () => {
    const code = lines(
      'async def f(client, url):',
      '    async with client.stream("GET", url) as response:',
      '        async for line in response.aiter_lines():',
      '            if line == "[DONE]":',
      '                await response.aclose()',
      '                break',
    );
    const { messages } = await lintPythonText(code);
    expect(messages).toEqual([
      {
        ruleId: 'drainguard/no-early-stream-close',
        severity: 2,
        message:
          '`response` is closed with `aclose()` after the terminal event `line == "[DONE]"` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).',
        line: 5,
        column: 23,
        messageId: 'explicitClose',
        endLine: 5,
        endColumn: 40,
      },
    ]);
  });

  it('# drainguard-disable-next-line and # drainguard-disable-line silence a site (kept as suppressed)', async () => {
    const code = lines(
      'async def f(response):',
      '    async for line in response.aiter_lines():',
      '        if line == "[DONE]":',
      '            # drainguard-disable-next-line',
      '            await response.aclose()',
      '        if line == "event: message_stop":',
      '            await response.aclose()  # drainguard-disable-line',
      '        if line == "event: done":',
      '            await response.aclose()',
    );
    const { messages, suppressedMessages } = await lintPythonText(code);
    expect(messages.map((message) => message.line)).toEqual([9]);
    expect(suppressedMessages.map((message) => [message.line, message.suppressions])).toEqual([
      [5, [{ kind: 'directive', justification: '' }]],
      [7, [{ kind: 'directive', justification: '' }]],
    ]);
  });

  it('the pre-filter skips a file with no close and no stream, and a file that lints clean gives the same result without it', async () => {
    const noClose = lines('def f(response):', '    for line in response.iter_lines():', '        print(line)');
    expect(await lintPythonText(noClose)).toEqual({ messages: [], suppressedMessages: [] });
    expect(await lintPythonText(noClose, { prefilter: false })).toEqual({ messages: [], suppressedMessages: [] });
  });

  it('the pre-filter lets through a close call spread over a line continuation', async () => {
    const code = lines('def f(response):', '    for line in response.iter_lines():', '        if line == "data: [DONE]":', '            response.close \\', '                ()');
    const { messages } = await lintPythonText(code);
    expect(messages.map((message) => [message.line, message.column, message.endLine, message.endColumn])).toEqual([[4, 13, 5, 19]]);
  });

  it('a long function with many branches and loops is analysed without enumerating paths', async () => {
    const body: string[] = ['async def f(response):', '    async for line in response.aiter_lines():'];
    for (let i = 0; i < 400; i++) body.push(`        if line == "x${i}":`, `            line = line + "${i}"`, '        else:', '            pass');
    body.push('        if line == "[DONE]":', '            await response.aclose()', '            return');
    expect(await sites(lines(...body))).toEqual([[body.length - 1, 19]]);
  });
});
