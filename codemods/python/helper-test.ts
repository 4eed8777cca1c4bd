import { DOCSTRING_START, EARLIER_HELPER } from './helper-text.js';
import type { IsortSettings } from './project.js';
import { STDLIB_MODULES } from './stdlib-modules.js';

/**
 * The text of the pytest test `drainguard fix` writes beside a Python module it gave a drain helper: each helper of
 * the module (`_drain_response`, `_adrain_response`) against a local HTTP/1.1 server (`http.server`, in a thread)
 * that counts connections and, after the terminal event, ends the body, holds it open, trickles, floods or resets it;
 * real httpx clients; every line and branch of the helper run. Laid out as ruff's formatter lays it out, imports as
 * its isort sorts them.
 */

/** The first line of every test drainguard writes: a later run recognises its own file by it (and may update it). */
export const PYTHON_HELPER_TEST_MARK = '# Tests of the drain helper, written by drainguard fix with its module (and';

/** Whether a file is one drainguard wrote (its mark among the first lines). */
export function isPythonHelperTest(text: string): boolean {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/, 8).some((line) => line === PYTHON_HELPER_TEST_MARK);
}

/** A drain helper of the module, as written there (by this version of drainguard). */
export interface HelperUnderTest {
  name: string;
  async: boolean;
  /** It takes a `budget` (a deadline bounds its reads). */
  timed: boolean;
  /** Its byte limit (0 = none). */
  maxBytes: number;
  /** It bounds the reads through the connection's network stream (else it reads to EOF, unbounded). */
  networkStream: boolean;
}

/** The module's own drain helpers (not an earlier version's, not someone else's function of that name). */
export function helpersInModule(text: string): HelperUnderTest[] {
  const helpers: HelperUnderTest[] = [];
  for (const match of text.matchAll(/^(async )?def (_a?drain_response)\(([^)]*)\)/gm)) {
    const start = match.index;
    const rest = text.slice(start + match[0].length);
    const end = /\n(?=[^\s#])/.exec(rest);
    const body = rest.slice(0, end ? end.index : undefined);
    if (!body.includes(DOCSTRING_START) || EARLIER_HELPER.test(body)) continue;
    const async = match[1] !== undefined;
    if (async !== (match[2] === '_adrain_response')) continue;
    helpers.push({
      name: match[2],
      async,
      timed: /\bbudget\b/.test(match[3]),
      maxBytes: Number(/^[ \t]+left = (\d+)\s*$/m.exec(body)?.[1] ?? 0),
      networkStream: body.includes('network_stream'),
    });
  }
  return helpers.sort((a, b) => Number(a.async) - Number(b.async));
}

/** How the repository runs async tests: anyio's pytest plugin, pytest-asyncio, pytest-trio. */
export type AsyncStyle = 'anyio' | 'asyncio' | 'trio';

export interface PythonTestSpec {
  /** The module the helpers are in, as the tests import it (`mcp.client.streamable_http`). */
  module: string;
  helpers: readonly HelperUnderTest[];
  /** The HTTP client library the module uses (`httpx`, `httpx2`): the test's clients are of it. */
  http: string;
  asyncStyle: AsyncStyle;
  /** Whether each async test carries the style's marker (not where the project marks them all: `asyncio_mode = "auto"`, `trio_mode`). */
  markAsync: boolean;
  /** Python >= 3.10 (`anext`, `float | None` at run time), >= 3.11 (`TimeoutError` is asyncio's). */
  python310: boolean;
  python311: boolean;
  /** What the import of the private helpers carries for the project's linters (`# noqa: PLC2701`), or ''. */
  importComment: string;
  isort: IsortSettings;
  quote: '"' | "'";
  indent: string;
  newline: string;
  lineLength: number;
}

type Line = [depth: number, text: string] | '';

/** `BUDGET` and `HANG_BOUND`: the budget of a drain that is to give up, and the bound past which it hangs. */
const BUDGET = '0.1';
const HANG_BOUND = '10.0';
/** The body past a drain's end when the helper has no byte limit: longer than any default one. */
const LONG_WITHOUT_LIMIT = 262144;

export function pythonHelperTestText(spec: PythonTestSpec): string {
  return new TestWriter(spec).text();
}

class TestWriter {
  private readonly q: string;
  private readonly networked: boolean;
  private readonly timed: boolean;
  private readonly limit: number;
  private readonly anyAsync: boolean;
  private readonly imports = new Map<string, Set<string>>();

  constructor(private readonly spec: PythonTestSpec) {
    this.q = spec.quote;
    this.networked = spec.helpers.some((helper) => helper.networkStream);
    this.timed = spec.helpers.some((helper) => helper.timed);
    this.limit = Math.max(0, ...spec.helpers.map((helper) => helper.maxBytes));
    this.anyAsync = spec.helpers.some((helper) => helper.async);
  }

  private str(text: string): string {
    return `${this.q}${text}${this.q}`;
  }

  private bytes(text: string): string {
    return `b${this.q}${text}${this.q}`;
  }

  private use(module: string, name = ''): void {
    const names = this.imports.get(module) ?? new Set<string>();
    if (name) names.add(name);
    this.imports.set(module, names);
  }

  /** The tails the server needs: what follows the terminal event in each test. */
  private tails(): string[] {
    const tails = ['end'];
    if (this.networked) tails.push('long');
    if (this.timed || this.anyAsync) tails.push('hold');
    if (this.timed) tails.push('trickle');
    if (this.limit > 0) tails.push('flood');
    tails.push('reset');
    return tails;
  }

  /** A call, a signature or a literal: on one line where it fits, else one item a line with a trailing comma (ruff keeps both). */
  private wrap(depth: number, head: string, items: readonly string[], tail: string, open = '(', close = ')'): Line[] {
    const oneLine = `${head}${open}${items.join(', ')}${close}${tail}`;
    if (this.spec.indent.length * depth + oneLine.length <= this.spec.lineLength) return [[depth, oneLine]];
    return [[depth, `${head}${open}`], ...items.map((item): Line => [depth + 1, `${item},`]), [depth, `${close}${tail}`]];
  }

  /** A comment at `depth`, its words wrapped to the line length (at most 79 wide, as the rest of the file). */
  private comment(depth: number, text: string): Line[] {
    const width = Math.min(this.spec.lineLength, 79) - this.spec.indent.length * depth - 2;
    const lines: string[] = [];
    for (const word of text.split(' ')) {
      const last = lines.at(-1);
      if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
      else lines.push(word);
    }
    return lines.map((line): Line => [depth, `# ${line}`]);
  }

  text(): string {
    const { spec } = this;
    const http = spec.http;
    this.use('http.server', 'BaseHTTPRequestHandler');
    this.use('http.server', 'ThreadingHTTPServer');
    this.use('contextlib');
    this.use('socket');
    this.use('struct');
    this.use('threading');
    this.use('collections.abc', 'Iterator');
    this.use(http);
    this.use('pytest');
    if (!spec.python310) this.use('__future__', 'annotations');
    const body: Line[] = [];
    body.push(...this.constants(), '', '', ...this.server(), '', '', ...this.fixture());
    for (const helper of spec.helpers) body.push('', '', ...this.helperSupport(helper));
    for (const helper of spec.helpers) {
      for (const test of this.tests(helper)) body.push('', '', ...test);
    }
    const names = spec.helpers.map((helper) => helper.name);
    const header: Line[] = [
      [0, PYTHON_HELPER_TEST_MARK],
      [0, '# again when the helper changes): each drain runs against a local HTTP/1.1'],
      [0, '# server that ends, holds, trickles, floods or resets the body after the'],
      [0, '# terminal event, and counts the connections it accepts.'],
    ];
    const lines: Line[] = [...header, ...this.importLines(names), '', ...body];
    const out = lines.map((line) => (line === '' ? '' : `${spec.indent.repeat(line[0])}${line[1]}`));
    return `${out.join(spec.newline)}${spec.newline}`;
  }

  private constants(): Line[] {
    const lines: Line[] = [
      ...this.comment(
        0,
        `${this.limit > 0 ? "The helper's byte limit; the" : 'The'} budget of a drain that is to give up (and how long a test lets one run before it cancels it), and how long such a drain may take before the test calls it a hang: a bound on a hang, never on latency.`,
      ),
    ];
    if (this.limit > 0) lines.push([0, `LIMIT = ${this.limit}`]);
    lines.push([0, `BUDGET = ${BUDGET}`], [0, `HANG_BOUND = ${HANG_BOUND}`], '', [0, '# Where each body starts: the event after which the code closed it.'], [0, `TERMINAL = ${this.bytes('data: [DONE]\\n\\n')}`]);
    return lines;
  }

  private server(): Line[] {
    const { q } = this;
    const tails = this.tails();
    const lines: Line[] = [
      [0, 'class _Server(ThreadingHTTPServer):'],
      [1, `"""A local HTTP/1.1 server whose bodies start with the terminal event."""`],
      '',
      [1, "# server_close() waits for every connection's thread."],
      [1, 'daemon_threads = False'],
      '',
      [1, 'def __init__(self) -> None:'],
      ...this.wrap(2, 'super().__init__', [`(${this.str('127.0.0.1')}, 0)`, '_Handler'], ''),
      [2, `self.url = f${q}http://127.0.0.1:{self.server_address[1]}${q}`],
      [2, 'self.clients: set[int] = set()'],
      [2, '# Set when the test ends: a body held open or trickling ends then.'],
      [2, 'self.release = threading.Event()'],
      '',
      [1, '@property'],
      [1, 'def connections(self) -> int:'],
      [2, 'return len(self.clients)'],
      '',
      '',
      [0, 'class _Handler(BaseHTTPRequestHandler):'],
      [1, `protocol_version = ${this.str('HTTP/1.1')}`],
      '',
      [1, 'def do_GET(self) -> None:'],
      [2, 'server = self.server'],
      [2, 'assert isinstance(server, _Server)'],
      [2, 'server.clients.add(self.client_address[1])'],
      [2, 'self.release = server.release'],
      ...this.wrap(2, 'tail = ', tails.map((tail) => `${this.str(`/${tail}`)}: self._${tail}`), `[self.path]`, '{', '}'),
      [2, 'self.send_response_only(200)'],
      [2, `self.send_header(${this.str('Content-Type')}, ${this.str('text/event-stream')})`],
      [2, `self.send_header(${this.str('Transfer-Encoding')}, ${this.str('chunked')})`],
      [2, 'self.end_headers()'],
      [2, 'self._chunk(TERMINAL)'],
      [2, 'tail()'],
      '',
      [1, 'def _chunk(self, data: bytes) -> None:'],
      [2, '# A client that gave up on the body has closed the connection.'],
      [2, 'with contextlib.suppress(OSError):'],
      [3, `self.wfile.write(${this.bytes('%x\\r\\n%s\\r\\n')} % (len(data), data))`],
    ];
    const end = `self._chunk(${this.bytes('')})`;
    const tailBodies: Record<string, Line[]> = {
      end: [[2, '# The rest of the body a moment later, then its end.'], [2, 'self.release.wait(0.02)'], [2, `self._chunk(${this.bytes(': the end\\n\\n')})`], [2, end]],
      long: [
        [2, this.limit > 0 ? "# Twice the helper's limit, then the end." : '# A long body, then its end.'],
        [2, `self._chunk(${this.bytes(':')} * ${this.longBody()} + ${this.bytes('\\n\\n')})`],
        [2, end],
      ],
      hold: [[2, '# Held open until the test ends.'], [2, 'self.release.wait(HANG_BOUND * 2)'], [2, end], [2, 'self.close_connection = True']],
      trickle: [
        [2, '# A byte every 10 ms (for 20 s at most) until the test ends.'],
        [2, 'for _ in range(2000):'],
        [3, 'self.release.wait(0.01)'],
        [3, `self._chunk(${this.bytes(':')})`],
        [2, end],
        [2, 'self.close_connection = True'],
      ],
      flood: [
        [2, '# Comment lines as fast as the client reads them (4 MiB).'],
        [2, 'for _ in range(64):'],
        [3, `self._chunk(${this.bytes(':')} * 65535 + ${this.bytes('\\n')})`],
        [2, end],
        [2, 'self.close_connection = True'],
      ],
      reset: [
        [2, '# Closed with nothing lingering: the client sees a reset.'],
        [2, `linger = struct.pack(${this.str('ii')}, 1, 0)`],
        ...this.wrap(2, 'self.connection.setsockopt', ['socket.SOL_SOCKET', 'socket.SO_LINGER', 'linger'], ''),
        [2, 'self.close_connection = True'],
      ],
    };
    for (const tail of tails) lines.push('', [1, `def _${tail}(self) -> None:`], ...tailBodies[tail]);
    return lines;
  }

  private longBody(): string {
    return this.limit > 0 ? '(2 * LIMIT)' : String(LONG_WITHOUT_LIMIT);
  }

  private fixture(): Line[] {
    return [
      [0, '@pytest.fixture'],
      [0, 'def server() -> Iterator[_Server]:'],
      [1, 'server = _Server()'],
      ...this.wrap(1, 'thread = threading.Thread', ['target=server.serve_forever', 'args=(0.01,)'], ''),
      [1, 'thread.start()'],
      [1, 'try:'],
      [2, 'yield server'],
      [1, 'finally:'],
      [2, 'server.release.set()'],
      [2, 'server.shutdown()'],
      [2, 'server.server_close()'],
      [2, 'thread.join()'],
    ];
  }

  /** The names a helper's tests use: `lines_after` reads the body to its terminal event, `count_reads` counts the network's bytes. */
  private names(helper: HelperUnderTest): { after: string; count: string; prefix: string; aw: string; iter: string } {
    const a = helper.async ? 'a' : '';
    return { after: `_${a}lines_after_the_terminal_event`, count: `_${a}count_reads`, prefix: `test_${helper.name.replace(/^_+/, '')}`, aw: helper.async ? 'await ' : '', iter: helper.async ? 'AsyncIterator' : 'Iterator' };
  }

  private helperSupport(helper: HelperUnderTest): Line[] {
    const { spec } = this;
    const n = this.names(helper);
    this.use('collections.abc', n.iter);
    const response = `${spec.http}.Response`;
    const first = helper.async ? (spec.python310 ? '(await anext(lines))' : '(await lines.__anext__())') : 'next(lines)';
    const lines: Line[] = [
      ...this.wrap(0, `${helper.async ? 'async def' : 'def'} ${n.after}`, [`response: ${response}`], ` -> ${n.iter}[str]:`),
      [1, `lines = response.${helper.async ? 'aiter_lines' : 'iter_lines'}()`],
      // httpx before 0.24 keeps each line's end.
      [1, `assert ${first}.rstrip() == ${this.str('data: [DONE]')}`],
      [1, 'return lines'],
    ];
    if (helper.maxBytes > 0) {
      lines.push(
        '',
        '',
        ...this.wrap(0, `def ${n.count}`, [`response: ${response}`], ' -> list[int]:'),
        [1, `"""Count what each read of the connection's network stream returns."""`],
        [1, `stream = response.extensions[${this.str('network_stream')}]`],
        [1, 'read = stream.read'],
        [1, 'sizes: list[int] = []'],
        '',
        ...this.wrap(1, `${helper.async ? 'async def' : 'def'} counting_read`, ['max_bytes: int', 'timeout: float | None = None'], ' -> bytes:'),
        [2, `data: bytes = ${n.aw}read(max_bytes, timeout)`],
        [2, 'sizes.append(len(data))'],
        [2, 'return data'],
        '',
        [1, 'stream.read = counting_read'],
        [1, 'return sizes'],
      );
    }
    return lines;
  }

  private marker(helper: HelperUnderTest): Line[] {
    return helper.async && this.spec.markAsync ? [[0, `@pytest.mark.${this.spec.asyncStyle}`]] : [];
  }

  private tests(helper: HelperUnderTest): Line[][] {
    const { spec, q } = this;
    const n = this.names(helper);
    const http = spec.http;
    const client = helper.async ? `${http}.AsyncClient()` : `${http}.Client()`;
    const withKw = helper.async ? 'async with' : 'with';
    const def = helper.async ? 'async def' : 'def';
    const drain = (events: string, budget: string | null): string =>
      `${n.aw}${helper.name}(response, ${events}${helper.timed && budget ? `, budget=${budget}` : ''})`;
    const url = (path: string): string => `f${q}{server.url}/${path}${q}`;
    const open = (path: string): Line => [2, `${withKw} client.stream(${this.str('GET')}, ${url(path)}) as response:`];
    const after = (): Line => [3, `lines = ${n.aw}${n.after}(response)`];
    const next: Line = [2, `${n.aw}client.get(${url('end')})`];
    const signature = (name: string, params: string[]): Line[] => this.wrap(0, `${def} ${n.prefix}_${name}`, params, ' -> None:');
    const tests: Line[][] = [];

    tests.push([
      ...this.marker(helper),
      ...signature('drains_to_the_end', ['server: _Server']),
      [1, `${withKw} ${client} as client:`],
      open('end'),
      after(),
      [3, drain('lines', 'HANG_BOUND')],
      [3, '# Read to its end: httpx closed it and pooled its connection.'],
      [3, 'assert response.is_closed'],
      next,
      [1, 'assert server.connections == 1'],
    ]);

    if (helper.networkStream) {
      const iterator = `${n.iter}[str]`;
      tests.push([
        ...this.marker(helper),
        ...signature('leaves_later_reads_alone', ['server: _Server']),
        [1, 'bodies: list[bytes] = []'],
        [1, `${withKw} ${client} as client:`],
        '',
        ...this.wrap(2, `${def} then_another_request`, [`lines: ${iterator}`], ` -> ${iterator}:`),
        ...(helper.async ? ([[3, 'async for line in lines:'], [4, 'yield line']] satisfies Line[]) : ([[3, 'yield from lines']] satisfies Line[])),
        ...this.comment(3, 'The body has ended and its connection is back in the pool: this request reuses it while the drain runs, and reads past its limit.'),
        [3, helper.async ? `bodies.append((await client.get(${url('long')})).content)` : `bodies.append(client.get(${url('long')}).content)`],
        '',
        open('end'),
        after(),
        ...this.wrap(3, `${n.aw}${helper.name}`, ['response', 'then_another_request(lines)', ...(helper.timed ? ['budget=HANG_BOUND'] : [])], ''),
        [1, `assert len(bodies[0]) > ${this.longBody().replace(/^\((.*)\)$/, '$1')}`],
        [1, 'assert server.connections == 1'],
      ]);
    }

    if (helper.timed) {
      this.use('time');
      tests.push([
        ...this.marker(helper),
        [0, `@pytest.mark.parametrize(${this.str('tail')}, [${this.str('hold')}, ${this.str('trickle')}])`],
        ...signature('gives_up_on_a_body_left_open', ['server: _Server', 'tail: str']),
        [1, `${withKw} ${client} as client:`],
        [2, `${withKw} client.stream(${this.str('GET')}, f${q}{server.url}/{tail}${q}) as response:`],
        after(),
        [3, 'started = time.monotonic()'],
        [3, drain('lines', 'BUDGET')],
        [3, 'assert time.monotonic() - started < HANG_BOUND'],
        next,
        [1, '# The close after the drain threw that connection away.'],
        [1, 'assert server.connections == 2'],
      ]);
    }

    if (helper.maxBytes > 0) {
      tests.push([
        ...this.marker(helper),
        ...signature('stops_at_the_byte_limit', ['server: _Server']),
        [1, `${withKw} ${client} as client:`],
        open('flood'),
        after(),
        [3, `sizes = ${n.count}(response)`],
        [3, drain('lines', 'HANG_BOUND')],
        next,
        [1, `assert sum(sizes) == ${helper.maxBytes === this.limit ? 'LIMIT' : helper.maxBytes}`],
        [1, 'assert server.connections == 2'],
      ]);
    }

    tests.push([
      ...this.marker(helper),
      ...signature('ignores_a_reset', ['server: _Server']),
      [1, `${withKw} ${client} as client:`],
      open('reset'),
      after(),
      [3, drain('lines', 'HANG_BOUND')],
      next,
      [1, 'assert server.connections == 2'],
    ]);

    if (helper.async) tests.push(this.cancelTest(helper));

    const cases: [string, string][] = [];
    if (helper.networkStream) cases.push(['no network stream', '{}']);
    cases.push(['HTTP/2', `{${this.str('http_version')}: ${this.bytes('HTTP/2')}, ${this.str('network_stream')}: object()}`]);
    const parametrize: Line[] =
      cases.length > 1
        ? [
            [0, '@pytest.mark.parametrize('],
            [1, `${this.str('extensions')},`],
            [1, `[${cases.map(([, value]) => value).join(', ')}],`],
            [1, `ids=[${cases.map(([id]) => this.str(id)).join(', ')}],`],
            [0, ')'],
          ]
        : this.wrap(0, '@pytest.mark.parametrize', [this.str('extensions'), `[${cases[0][1]}]`, `ids=[${this.str(cases[0][0])}]`], '');
    const rest = helper.async ? '[line.rstrip() async for line in lines]' : '[line.rstrip() for line in lines]';
    tests.push([
      ...this.marker(helper),
      ...parametrize,
      ...signature('returns_at_once', ['extensions: dict[str, object]']),
      [1, `def handler(_: ${http}.Request) -> ${http}.Response:`],
      [2, `return ${http}.Response(200, content=TERMINAL, extensions=extensions)`],
      '',
      [1, `transport = ${http}.MockTransport(handler)`],
      [1, `${withKw} ${http}.${helper.async ? 'AsyncClient' : 'Client'}(transport=transport) as client:`],
      [2, `response = ${n.aw}client.get(${this.str('http://drainguard.test/')})`],
      [1, `lines = response.${helper.async ? 'aiter_lines' : 'iter_lines'}()`],
      [1, drain('lines', 'HANG_BOUND')],
      [1, '# Nothing was read: the body is all there.'],
      [1, `assert ${rest} == [${this.str('data: [DONE]')}, ${this.str('')}]`],
    ]);
    return tests;
  }

  /** A cancel during the drain reaches the caller (the helper swallows errors, never a cancel) and leaves the stream as it was. */
  private cancelTest(helper: HelperUnderTest): Line[] {
    const { spec } = this;
    const n = this.names(helper);
    const style = spec.asyncStyle;
    const call = `${helper.name}(response, lines${helper.timed ? ', budget=HANG_BOUND' : ''})`;
    const cancel: Line[] = [];
    if (style === 'asyncio') {
      this.use('asyncio');
      cancel.push(
        [3, `with pytest.raises(${spec.python311 ? 'TimeoutError' : 'asyncio.TimeoutError'}):`],
        ...this.wrap(4, 'await asyncio.wait_for', [call, 'BUDGET'], ''),
        ...(helper.networkStream ? this.comment(3, 'The cancel reached the caller (as the timeout), and the stream reads as before.') : this.comment(3, 'The cancel reached the caller (as the timeout).')),
      );
    } else {
      this.use(style);
      cancel.push(
        [3, `with pytest.raises(${style === 'trio' ? 'trio.TooSlowError' : 'TimeoutError'}), ${style}.fail_after(BUDGET):`],
        [4, `await ${call}`],
        ...(helper.networkStream ? this.comment(3, 'The cancel reached the caller (as the timeout), and the stream reads as before.') : this.comment(3, 'The cancel reached the caller (as the timeout).')),
      );
    }
    return [
      ...this.marker(helper),
      ...this.wrap(0, `async def ${n.prefix}_keeps_a_cancel`, ['server: _Server'], ' -> None:'),
      [1, `async with ${spec.http}.AsyncClient() as client:`],
      [2, `async with client.stream(${this.str('GET')}, f${this.q}{server.url}/hold${this.q}) as response:`],
      [3, `lines = await ${n.after}(response)`],
      ...(helper.networkStream ? ([[3, `stream = response.extensions[${this.str('network_stream')}]`], [3, 'read = stream.read']] satisfies Line[]) : []),
      ...cancel,
      ...(helper.networkStream ? ([[3, 'assert stream.read == read']] satisfies Line[]) : []),
      [2, `await client.get(f${this.q}{server.url}/end${this.q})`],
      [1, 'assert server.connections == 2'],
    ];
  }

  /** The import block: sections as isort orders them (future, standard library, third party, first party), then the helpers. */
  private importLines(helperNames: readonly string[]): Line[] {
    const { isort } = this.spec;
    const top = this.spec.module.split('.')[0];
    const section = (module: string): number => {
      const head = module.split('.')[0];
      if (head === '__future__') return 0;
      if (STDLIB_MODULES.has(head) || isort.extraStandardLibrary.has(head)) return 1;
      if (head === top || isort.knownFirstParty.has(head)) return 3;
      return 2;
    };
    const entries = [...this.imports].map(([module, names]) => ({ module, names: [...names], from: names.size > 0 }));
    entries.push({ module: this.spec.module, names: [...helperNames], from: true });
    const memberKey = (name: string): (string | number)[] => {
      const type = name.length > 1 && name === name.toUpperCase() ? 0 : /^[A-Z]/.test(name) ? 1 : 2;
      return [type, isort.lengthSort ? name.length : 0, name.toLowerCase(), name];
    };
    const moduleKey = (entry: { module: string; from: boolean }): (string | number)[] => [
      isort.forceSortWithinSections ? 0 : Number(entry.from),
      isort.lengthSort ? (entry.from ? entry.module.length : `import ${entry.module}`.length) : 0,
      entry.module.toLowerCase(),
      entry.module,
    ];
    const lines: Line[] = [];
    for (let s = 0; s <= 3; s++) {
      const group = entries.filter((entry) => section(entry.module) === s).sort((a, b) => compare(moduleKey(a), moduleKey(b)));
      if (group.length === 0) continue;
      if (lines.length > 0) lines.push('');
      for (const entry of group) {
        if (!entry.from) {
          lines.push([0, `import ${entry.module}`]);
          continue;
        }
        const names = entry.names.sort((a, b) => compare(memberKey(a), memberKey(b)));
        const comment = entry.module === this.spec.module && this.spec.importComment ? `  ${this.spec.importComment}` : '';
        const oneLine = `from ${entry.module} import ${names.join(', ')}${comment}`;
        if (oneLine.length <= this.spec.lineLength || comment) lines.push([0, oneLine]);
        else lines.push([0, `from ${entry.module} import (`], ...names.map((name): Line => [1, `${name},`]), [0, ')']);
      }
    }
    return lines;
  }
}

function compare(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return a.length - b.length;
}
