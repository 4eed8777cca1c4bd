/** The async library a file already uses, whose cancel scope or timeout bounds the drain. */
export type AsyncLibrary = 'anyio' | 'trio' | 'asyncio';

export interface DrainText {
  /** Indentation of the statement the drain goes before, and one level of indentation. */
  indent: string;
  step: string;
  newline: string;
  /** The iterator the loop reads (a name or an expression safe to evaluate again). */
  iterator: string;
  /** The variable that takes the discarded items. */
  discard: string;
  /** Budget in milliseconds; 0 drains without one. */
  budgetMs: number;
}

const COMMENT = '# drainguard: read the rest of the body (bounded) so the connection goes back to the pool';

function seconds(ms: number): string {
  const value = ms / 1000;
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

function render(lines: readonly (string | [number, string])[], text: DrainText): string {
  return lines
    .map((line) => (typeof line === 'string' ? [0, line] as const : line))
    .map(([depth, line]) => `${text.indent}${text.step.repeat(depth)}${line}${text.newline}`)
    .join('');
}

/**
 * The lines an async drain inserts before the close: read the same iterator to its end, swallowing
 * errors (nothing after the terminal event may reach the caller's error or reconnect handling),
 * under the library's cancel scope or timeout, so the original close runs when the budget is spent.
 */
export function asyncDrain(library: AsyncLibrary, text: DrainText): string {
  const loop: [number, string][] = [
    [0, 'try:'],
    [1, `async for ${text.discard} in ${text.iterator}:`],
    [2, 'pass'],
    [0, 'except Exception:'],
    [1, 'pass'],
  ];
  const seconds_ = seconds(text.budgetMs);
  if (text.budgetMs === 0) return render([COMMENT, ...loop], text);
  if (library === 'asyncio') {
    return render(
      [COMMENT, 'try:', [1, `async with asyncio.timeout(${seconds_}):`], [2, `async for ${text.discard} in ${text.iterator}:`], [3, 'pass'], 'except Exception:', [1, 'pass']],
      text,
    );
  }
  return render([COMMENT, `with ${library}.move_on_after(${seconds_}):`, ...loop.map(([depth, line]) => [depth + 1, line] as [number, string])], text);
}

/**
 * The lines a sync drain inserts: a blocked read is only interrupted by shutting the socket down
 * (closing the response from a timer thread does not wake it), so a timer shuts down the socket
 * of the response's network stream when the budget is spent. A response without one (another
 * transport, HTTP/2) is not drained: the lookup fails inside the `try`.
 */
export function syncDrain(response: string, timer: string, socketName: string, text: DrainText): string {
  if (text.budgetMs === 0) {
    return render([COMMENT, 'try:', [1, `for ${text.discard} in ${text.iterator}:`], [2, 'pass'], 'except Exception:', [1, 'pass']], text);
  }
  return render(
    [
      COMMENT,
      `${timer} = None`,
      'try:',
      [1, `${socketName} = ${response}.extensions["network_stream"].get_extra_info("socket")`],
      [1, `${timer} = threading.Timer(${seconds(text.budgetMs)}, ${socketName}.shutdown, (socket.SHUT_RDWR,))`],
      [1, `${timer}.start()`],
      [1, `for ${text.discard} in ${text.iterator}:`],
      [2, 'pass'],
      'except Exception:',
      [1, 'pass'],
      'finally:',
      [1, `if ${timer} is not None:`],
      [2, `${timer}.cancel()`],
    ],
    text,
  );
}
