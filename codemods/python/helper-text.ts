/** What the module-level drain helper is written with. */
export interface HelperSpec {
  name: string;
  async: boolean;
  /** How the module reaches what the helper uses: `contextlib` and `time`. */
  modules: Partial<Record<'contextlib' | 'time', string>>;
  /** Annotations (`httpx.Response`, `AsyncIterator[object]`, `float | None`), or null to leave the helper unannotated. */
  responseType: string | null;
  iteratorType: string | null;
  optionalFloat: string | null;
  /** The default of the helper's `budget` parameter, in ms: the caller's wait (0 = no time bound, and no parameter). */
  budgetMs: number;
  /** 0 = no byte limit. */
  maxBytes: number;
  indent: string;
  newline: string;
  quote: '"' | "'";
  lineLength: number;
}

/** How every helper's docstring starts: a later run recognises its own helper by it (and reuses it). */
export const DOCSTRING_START = 'Read the rest of an HTTP/1.1 response';
/** What only the helpers of earlier drainguard versions have: they counted parsed events, not the body's bytes. */
export const EARLIER_HELPER = /num_bytes_downloaded|threading\.Timer\(|move_on_after\(|asyncio\.timeout\(/;

export function seconds(ms: number): string {
  const value = ms / 1000;
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

/** A `def` line at `depth`, or as black and ruff format a signature too long for one line. */
function signature(spec: HelperSpec, depth: number, head: string, params: readonly string[], returns: string): [number, string][] {
  const width = spec.lineLength - spec.indent.length * depth;
  const oneLine = `${head}(${params.join(', ')})${returns}:`;
  if (oneLine.length <= width) return [[depth, oneLine]];
  const inner = `${spec.indent}${params.join(', ')}`;
  if (inner.length <= width) return [[depth, `${head}(`], [depth, inner], [depth, `)${returns}:`]];
  return [[depth, `${head}(`], ...params.map((param): [number, string] => [depth, `${spec.indent}${param},`]), [depth, `)${returns}:`]];
}

/** A comment at `depth`, its words wrapped to the line length. */
function comment(spec: HelperSpec, depth: number, text: string): [number, string][] {
  const width = Math.min(spec.lineLength, 88) - spec.indent.length * depth - 2;
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => [depth, `# ${line}`]);
}

/**
 * The helper every site of a module calls: read what is left of the response through the iterator the loop was
 * reading, to EOF (the connection goes back to the pool), swallowing errors (nothing after the terminal event may
 * reach the caller's error or reconnect handling); the caller's original close follows. The drain is bounded where
 * the bytes arrive: for its duration the connection's network stream (httpcore's, `extensions["network_stream"]`,
 * whose `read()` every read of the body goes through) is shadowed by a read that counts the bytes and honours the
 * drain's deadline, and that raises past either, which takes httpcore's ordinary error path (the connection is
 * closed, as the original close would have). A response with no network stream (another transport) and an HTTP/2
 * one (whose connection is shared: closing the stream resets it alone) are left to the original close.
 */
export function helperText(spec: HelperSpec): string {
  const q = spec.quote;
  const contextlib = spec.modules.contextlib ?? 'contextlib';
  const time = spec.modules.time ?? 'time';
  const timed = spec.budgetMs > 0;
  const limited = spec.maxBytes > 0;
  const aw = spec.async ? 'await ' : '';
  const body: (string | [number, string])[] = [[1, `"""${DOCSTRING_START}${timed || limited ? ' (bounded)' : ''} so the connection is reused."""`]];
  const drainLoop: [number, string][] = [
    [1, 'try:'],
    [2, `with ${contextlib}.suppress(Exception):`],
    [3, `${spec.async ? 'async for' : 'for'} _ in events:`],
    [4, 'pass'],
    [1, 'finally:'],
    [2, 'stream.read = read'],
  ];
  if (!timed && !limited) {
    body.push([1, `if response.http_version != ${q}HTTP/1.1${q}:`], [2, 'return'], [1, `with ${contextlib}.suppress(Exception):`], [2, `${spec.async ? 'async for' : 'for'} _ in events:`], [3, 'pass']);
  } else {
    const bounds = timed && limited ? 'the byte limit or the deadline' : timed ? 'the deadline' : 'the byte limit';
    const gaveUp: string[] = [timed ? 'remaining <= 0' : '', limited ? 'left <= 0' : ''].filter(Boolean);
    const annotated = spec.responseType !== null;
    const params = annotated ? ['max_bytes: int', `timeout: ${spec.optionalFloat ?? 'float | None'} = None`] : ['max_bytes', 'timeout=None'];
    body.push(
      ...comment(spec, 1, `Every read of the body goes through the connection's network stream: during the drain its reads stop at ${bounds}, however the bytes parse, and httpx then closes the connection as the close after the drain would.`),
      [1, `stream = response.extensions.get(${q}network_stream${q})`],
      [1, `if response.http_version != ${q}HTTP/1.1${q} or stream is None:`],
      [2, 'return'],
      [1, 'read = stream.read'],
      ...(timed ? ([[1, `deadline = ${time}.monotonic() + budget`]] satisfies [number, string][]) : []),
      ...(limited ? ([[1, `left = ${spec.maxBytes}`]] satisfies [number, string][]) : []),
      '',
      ...signature(spec, 1, `${spec.async ? 'async def' : 'def'} bounded_read`, params, annotated ? ' -> bytes' : ''),
      ...(limited ? ([[2, 'nonlocal left']] satisfies [number, string][]) : []),
      ...comment(spec, 2, 'Past EOF the connection is back in the pool: its reads are not the drain\'s.'),
      [2, 'if not response.is_closed:'],
      ...(timed ? ([[3, `remaining = deadline - ${time}.monotonic()`]] satisfies [number, string][]) : []),
      [3, `if ${gaveUp.join(' or ')}:`],
      [4, 'raise TimeoutError'],
      ...(limited ? ([[3, 'max_bytes = min(max_bytes, left)']] satisfies [number, string][]) : []),
      ...(timed ? ([[3, 'timeout = remaining if timeout is None else min(timeout, remaining)']] satisfies [number, string][]) : []),
      [2, `data${annotated ? ': bytes' : ''} = ${aw}read(max_bytes, timeout)`],
      ...(limited ? ([[2, 'left -= len(data)']] satisfies [number, string][]) : []),
      [2, 'return data'],
      '',
      [1, 'stream.read = bounded_read'],
      ...drainLoop,
    );
  }
  const outer = [`response${spec.responseType ? `: ${spec.responseType}` : ''}`, `events${spec.iteratorType ? `: ${spec.iteratorType}` : ''}`];
  if (timed) outer.push(`budget: float = ${seconds(spec.budgetMs)}`);
  const head = signature(spec, 0, `${spec.async ? 'async def' : 'def'} ${spec.name}`, outer, ' -> None');
  const lines = [...head.map(([depth, text]) => `${spec.indent.repeat(depth)}${text}`), ...body.map((line) => (typeof line === 'string' ? line : `${spec.indent.repeat(line[0])}${line[1]}`))];
  return lines.map((line) => `${line}${spec.newline}`).join('');
}
