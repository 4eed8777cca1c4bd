import type { Bound } from './bound.js';

/** What the module-level drain helper is written with. */
export interface HelperSpec {
  name: string;
  async: boolean;
  bound: Bound;
  /** How the module reaches what the helper uses: `contextlib`, and `anyio`, `trio`, `asyncio`, or `socket` and `threading`. */
  modules: Partial<Record<'contextlib' | 'anyio' | 'trio' | 'asyncio' | 'socket' | 'threading', string>>;
  /** Annotations (`httpx.Response`, `AsyncIterator[object]`), or null to leave a parameter unannotated. */
  responseType: string | null;
  iteratorType: string | null;
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

function seconds(ms: number): string {
  const value = ms / 1000;
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

function signature(spec: HelperSpec): string[] {
  const params = [`response${spec.responseType ? `: ${spec.responseType}` : ''}`, `events${spec.iteratorType ? `: ${spec.iteratorType}` : ''}`];
  const head = `${spec.async ? 'async def' : 'def'} ${spec.name}(`;
  const oneLine = `${head}${params.join(', ')}) -> None:`;
  if (oneLine.length <= spec.lineLength) return [oneLine];
  // As black and ruff format a signature too long for one line.
  const inner = `${spec.indent}${params.join(', ')}`;
  if (inner.length <= spec.lineLength) return [head, inner, ') -> None:'];
  return [head, ...params.map((param) => `${spec.indent}${param},`), ') -> None:'];
}

/**
 * The helper every site of a module calls: read what is left of the response through the iterator
 * the loop was reading, to EOF (the connection goes back to the pool), or until the time budget or the
 * byte limit is spent, swallowing errors (nothing after the terminal event may reach the caller's error
 * or reconnect handling); the caller's original close follows. HTTP/2 responses are left alone: their
 * connection is shared, and closing the stream resets it alone.
 */
export function helperText(spec: HelperSpec): string {
  const q = spec.quote;
  const suppress = `${spec.modules.contextlib ?? 'contextlib'}.suppress(Exception)`;
  const limited = spec.maxBytes > 0;
  /** The loop that reads the rest, at a depth: stopped by the byte limit, if there is one. */
  const loop = (depth: number): [number, string][] => [
    [depth, `${spec.async ? 'async for' : 'for'} _ in events:`],
    ...(limited
      ? ([
          [depth + 1, 'if response.num_bytes_downloaded > limit:'],
          [depth + 2, 'break'],
        ] satisfies [number, string][])
      : ([[depth + 1, 'pass']] satisfies [number, string][])),
  ];
  const limitLine: [number, string][] = limited ? [[1, `limit = response.num_bytes_downloaded + ${spec.maxBytes}`]] : [];
  const bounded = spec.bound !== 'none' || limited;
  const body: (string | [number, string])[] = [[1, `"""${DOCSTRING_START}${bounded ? ' (bounded)' : ''} so the connection is reused."""`]];
  if (spec.bound === 'socket') {
    body.push(
      [1, `network_stream = response.extensions.get(${q}network_stream${q})`],
      [1, `sock = network_stream.get_extra_info(${q}socket${q}) if network_stream else None`],
      [1, `if response.http_version != ${q}HTTP/1.1${q} or sock is None:`],
      [2, 'return'],
      '',
      [1, 'def give_up() -> None:'],
      [2, '# A blocked read ends only when its socket is shut down.'],
      [2, 'if not response.is_closed:'],
      [3, `sock.shutdown(${spec.modules.socket ?? 'socket'}.SHUT_RDWR)`],
      '',
      [1, `timer = ${spec.modules.threading ?? 'threading'}.Timer(${seconds(spec.budgetMs)}, give_up)`],
      [1, 'timer.start()'],
      ...limitLine,
      [1, 'try:'],
      [2, `with ${suppress}:`],
      ...loop(3),
      [1, 'finally:'],
      [2, 'timer.cancel()'],
    );
  } else {
    body.push([1, `if response.http_version != ${q}HTTP/1.1${q}:`], [2, 'return'], ...limitLine);
    if (spec.bound === 'anyio' || spec.bound === 'trio') {
      body.push([1, `with ${spec.modules[spec.bound] ?? spec.bound}.move_on_after(${seconds(spec.budgetMs)}), ${suppress}:`], ...loop(2));
    } else if (spec.bound === 'asyncio') {
      // The TimeoutError the timeout raises when it ends the drain is suppressed with the read errors.
      body.push([1, `with ${suppress}:`], [2, `async with ${spec.modules.asyncio ?? 'asyncio'}.timeout(${seconds(spec.budgetMs)}):`], ...loop(3));
    } else {
      body.push([1, `with ${suppress}:`], ...loop(2));
    }
  }
  const lines = [...signature(spec), ...body.map((line) => (typeof line === 'string' ? line : `${spec.indent.repeat(line[0])}${line[1]}`))];
  return lines.map((line) => `${line}${spec.newline}`).join('');
}
