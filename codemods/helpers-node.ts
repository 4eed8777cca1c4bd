/**
 * The helper a close in a Node stream's 'data' handler becomes (see helpers.ts for how helpers are named and laid out).
 * What the original destroy() let through is kept: no 'data', 'end' or 'error' handler of the code runs after the
 * terminal event ('close' still fires, as it did).
 */
const DOC = `/**
 * drainguard: called in a 'data' handler at the terminal event instead of destroying the stream. Its 'data', 'end' and
 * 'error' handlers are removed (nothing after the terminal event reaches them, as after destroy()), the rest of the body
 * is read to its end and discarded, so that its keep-alive connection goes back to the pool, and after budgetMs
 * milliseconds (0: no limit) the stream is destroyed instead. See drainguard's docs/rules/no-early-stream-close.md.
 */`;

const BODY = `  for (const event of ['data', 'end', 'error']) {
    for (const listener of stream.listeners(event)) {
      // Node's http client returns the socket to its agent from its own 'end' listener: that one stays.
      if (listener.name !== 'responseOnEnd') stream.removeListener(event, listener);
    }
  }
  stream.on('error', () => {
    // a connection error after the terminal event: the outcome was decided there
  });
  const timer = budgetMs > 0 ? setTimeout(() => stream.destroy(), budgetMs) : undefined;
  const stop = (): void => clearTimeout(timer);
  stream.once('end', stop);
  stream.once('close', stop);
  stream.resume();
}`;

export const NODE_STREAM_TS = `${DOC}
function NAME(
  stream: {
    listeners(event: string): Array<{ name: string }>;
    removeListener(event: string, listener: { name: string }): unknown;
    on(event: string, listener: () => void): unknown;
    once(event: string, listener: () => void): unknown;
    resume(): unknown;
    destroy(): unknown;
  },
  budgetMs: number,
): void {
${BODY}`;

export const NODE_STREAM_JS = `${DOC}
function NAME(stream, budgetMs) {
${BODY.replace('const stop = (): void =>', 'const stop = () =>')}`;
