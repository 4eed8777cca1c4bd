/**
 * `x.drainInBackground()` in a `for await (… of x)`: drainguard's rewrite hands the rest of `x` to a bounded background
 * drain there, so leaving that loop no longer closes the body (other closes of the response are still closes).
 * See docs/rules/no-early-stream-close.md.
 */
export const DRAIN_HAND_OFF_METHOD = 'drainInBackground';

/**
 * `drainReader(reader, () => reader.cancel())`: a close in a function handed to a drain (a function whose name starts
 * with `drain`, as drainguard's helpers' do) is what the drain does when it gives up past its limits, not a close at
 * the terminal event.
 */
export function isDrainCall(name: string): boolean {
  return /^drain(?:[A-Z0-9_$][\w$]*)?$/.test(name);
}
