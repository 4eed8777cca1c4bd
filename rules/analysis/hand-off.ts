/**
 * `x.drainInBackground()` in a `for await (… of x)`: drainguard's rewrite hands the rest of `x` to a bounded background
 * drain there, so leaving that loop no longer closes the body (other closes of the response are still closes).
 * See docs/rules/no-early-stream-close.md.
 */
export const DRAIN_HAND_OFF_METHOD = 'drainInBackground';
