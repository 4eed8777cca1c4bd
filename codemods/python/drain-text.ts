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
 * The drain for trio code: read the same iterator to its end under trio's own cancel scope, swallowing
 * errors (nothing after the terminal event may reach the caller's error or reconnect handling), so the
 * original close runs when the budget is spent.
 */
export function trioDrain(text: DrainText): string {
  const loop: [number, string][] = [
    [0, 'try:'],
    [1, `async for ${text.discard} in ${text.iterator}:`],
    [2, 'pass'],
    [0, 'except Exception:'],
    [1, 'pass'],
  ];
  if (text.budgetMs === 0) return render([COMMENT, ...loop], text);
  return render([COMMENT, `with trio.move_on_after(${seconds(text.budgetMs)}):`, ...loop.map(([depth, line]) => [depth + 1, line] as [number, string])], text);
}

/**
 * The drain for httpx code, sync or async (asyncio, anyio): read the same iterator to its end,
 * swallowing errors, while a timer thread shuts down the socket of the response's network stream
 * when the budget is spent, which ends the pending read. A blocked sync read is only interrupted
 * that way (closing the response from a timer does not wake it); in async code it ends the drain
 * without cancelling the caller's task (measured with Debian's anyio 3.6.2 on Python 3.11: an
 * anyio cancel scope around the drain leaves the task with pending cancellation requests, and
 * `asyncio.timeout` lets the cancellation escape as CancelledError). A response without a socket (another transport, HTTP/2) is not drained:
 * the lookup fails inside the `try` and the original close follows.
 */
export function socketDrain(response: string, timer: string, socketName: string, text: DrainText, async_: boolean): string {
  const loop = `${async_ ? 'async for' : 'for'} ${text.discard} in ${text.iterator}:`;
  if (text.budgetMs === 0) {
    return render([COMMENT, 'try:', [1, loop], [2, 'pass'], 'except Exception:', [1, 'pass']], text);
  }
  return render(
    [
      COMMENT,
      `${timer} = None`,
      'try:',
      [1, `${socketName} = ${response}.extensions["network_stream"].get_extra_info("socket")`],
      [1, `${timer} = threading.Timer(${seconds(text.budgetMs)}, ${socketName}.shutdown, (socket.SHUT_RDWR,))`],
      [1, `${timer}.start()`],
      [1, loop],
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
