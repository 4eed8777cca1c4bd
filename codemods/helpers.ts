import type { Layout } from './layout.js';
import { DRAIN_HAND_OFF_METHOD } from '../rules/analysis/hand-off.js';
import { NODE_STREAM_JS, NODE_STREAM_TS } from './helpers-node.js';

/**
 * The small functions a rewritten file gets (once each, at its end, shared by all its sites). Written here with
 * two-space indentation and semicolons; {@link helperText} lays them out like the file. No line starts with `(` or
 * `[`, so a file without semicolons reads them the same way.
 */
const READER_TS = `/**
 * drainguard: reads the rest of a response body to its end and discards it, so that its keep-alive connection goes
 * back to the pool; after budgetMs milliseconds (0: no limit) it cancels the reader instead. Errors after the terminal
 * event are swallowed: the outcome was decided there. See drainguard's docs/rules/no-early-stream-close.md.
 */
async function NAME(reader: { read(): Promise<{ done?: boolean }>; cancel(): Promise<unknown> }, budgetMs: number): Promise<void> {
  const timer = budgetMs > 0 ? setTimeout(() => void reader.cancel().catch(() => {}), budgetMs) : undefined;
  try {
    while (!(await reader.read()).done) {
      // discard what follows the terminal event
    }
  } catch {
    // the budget's cancel() or a connection error after the terminal event
  } finally {
    clearTimeout(timer);
  }
}`;

const READER_JS = `/**
 * drainguard: reads the rest of a response body to its end and discards it, so that its keep-alive connection goes
 * back to the pool; after budgetMs milliseconds (0: no limit) it cancels the reader instead. Errors after the terminal
 * event are swallowed: the outcome was decided there. See drainguard's docs/rules/no-early-stream-close.md.
 */
async function NAME(reader, budgetMs) {
  const timer = budgetMs > 0 ? setTimeout(() => void reader.cancel().catch(() => {}), budgetMs) : undefined;
  try {
    while (!(await reader.read()).done) {
      // discard what follows the terminal event
    }
  } catch {
    // the budget's cancel() or a connection error after the terminal event
  } finally {
    clearTimeout(timer);
  }
}`;

const LOOP_TS = `/**
 * drainguard: iterates source for a \`for await\` loop. After drainInBackground() (at the terminal event) the loop may
 * be left at once: the rest is read in the background and discarded (from bodyReader, the real body of a parser fed by
 * tapBody(), as raw bytes; else from source), so that its keep-alive connection goes back to the pool, and after
 * budgetMs milliseconds (0: no limit) bodyReader's cancel() (else onBudget, the reader held here's cancel(), or
 * destroy()) ends that read. Leaving the loop any other way closes source at once, as before. Errors after the
 * terminal event are swallowed. See drainguard's docs/rules/no-early-stream-close.md.
 */
function NAME<S extends AsyncIterable<T>, T>(
  source: S & AsyncIterable<T>,
  budgetMs: number,
  onBudget?: { abort(): void } | (() => unknown),
  bodyReader?: { read(): Promise<{ done?: boolean }>; cancel(): Promise<unknown> },
) {
  const stream = source as AsyncIterable<T> & {
    getReader?(): { read(): Promise<IteratorResult<T>>; cancel(): Promise<void> };
    destroy?(): void;
  };
  // A web stream is read through a reader held here: its cancel() also ends a pending read.
  const held = onBudget === undefined && typeof stream.getReader === 'function' ? stream.getReader() : undefined;
  const iterator: AsyncIterator<T> = held
    ? { next: () => held.read(), return: async () => (await held.cancel(), { done: true, value: undefined }) }
    : source[Symbol.asyncIterator]();
  const giveUp = (): unknown => {
    if (bodyReader) return bodyReader.cancel();
    if (typeof onBudget === 'function') return onBudget();
    if (onBudget) return onBudget.abort();
    if (held) return held.cancel();
    if (stream.destroy) return stream.destroy();
    return iterator.return?.();
  };
  let handedOff = false;
  const wrapper = {
    [Symbol.asyncIterator]() {
      return this;
    },
    next(): Promise<IteratorResult<T>> {
      return handedOff ? Promise.resolve({ done: true, value: undefined }) : iterator.next();
    },
    async return(): Promise<IteratorResult<T>> {
      if (!handedOff) await iterator.return?.();
      return { done: true, value: undefined };
    },
    drainInBackground(): void {
      if (handedOff) return;
      handedOff = true;
      const timer = budgetMs > 0 ? setTimeout(() => void Promise.resolve().then(giveUp).catch(() => {}), budgetMs) : undefined;
      void (async () => {
        try {
          while (!(await (bodyReader ? bodyReader.read() : iterator.next())).done) {
            // discard what follows the terminal event
          }
        } catch {
          // the budget's abort or a connection error after the terminal event
        } finally {
          clearTimeout(timer);
        }
      })();
    },
  };
  // Typed as the source, so that the loop sees the same items as before (used only by the loop and the hand-off).
  return wrapper as unknown as S & { drainInBackground(): void };
}`;

const LOOP_JS = `/**
 * drainguard: iterates source for a \`for await\` loop. After drainInBackground() (at the terminal event) the loop may
 * be left at once: the rest is read in the background and discarded (from bodyReader, the real body of a parser fed by
 * tapBody(), as raw bytes; else from source), so that its keep-alive connection goes back to the pool, and after
 * budgetMs milliseconds (0: no limit) bodyReader's cancel() (else onBudget, the reader held here's cancel(), or
 * destroy()) ends that read. Leaving the loop any other way closes source at once, as before. Errors after the
 * terminal event are swallowed. See drainguard's docs/rules/no-early-stream-close.md.
 */
function NAME(source, budgetMs, onBudget, bodyReader) {
  // A web stream is read through a reader held here: its cancel() also ends a pending read.
  const held = onBudget === undefined && typeof source.getReader === 'function' ? source.getReader() : undefined;
  const iterator = held
    ? { next: () => held.read(), return: async () => (await held.cancel(), { done: true, value: undefined }) }
    : source[Symbol.asyncIterator]();
  const giveUp = () => {
    if (bodyReader) return bodyReader.cancel();
    if (typeof onBudget === 'function') return onBudget();
    if (onBudget) return onBudget.abort();
    if (held) return held.cancel();
    if (source.destroy) return source.destroy();
    return iterator.return?.();
  };
  let handedOff = false;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      return handedOff ? Promise.resolve({ done: true, value: undefined }) : iterator.next();
    },
    async return() {
      if (!handedOff) await iterator.return?.();
      return { done: true, value: undefined };
    },
    drainInBackground() {
      if (handedOff) return;
      handedOff = true;
      const timer = budgetMs > 0 ? setTimeout(() => void Promise.resolve().then(giveUp).catch(() => {}), budgetMs) : undefined;
      void (async () => {
        try {
          while (!(await (bodyReader ? bodyReader.read() : iterator.next())).done) {
            // discard what follows the terminal event
          }
        } catch {
          // the budget's abort or a connection error after the terminal event
        } finally {
          clearTimeout(timer);
        }
      })();
    },
  };
}`;

const TAP_TS = `/**
 * drainguard: hands a parser a stand-in for a fetch Response (same status and headers) or for its body, read through a
 * reader of the real body held here, so that after the terminal event drainable() reads that reader to the end as raw
 * bytes instead of running the parser over the rest. Anything else is handed over unchanged, without a reader. See
 * drainguard's docs/rules/no-early-stream-close.md.
 */
function NAME<R>(raw: R): { standIn: R; reader?: { read(): Promise<{ done?: boolean }>; cancel(): Promise<unknown> } } {
  // The globals, also where the file imports a type of the same name.
  const { Response: WebResponse, ReadableStream: WebStream } = globalThis;
  const body: typeof WebStream.prototype | null = raw instanceof WebResponse ? raw.body : raw instanceof WebStream ? raw : null;
  if (!body || body.locked) return { standIn: raw };
  const reader = body.getReader();
  // highWaterMark 0: the stand-in reads only when the parser asks, never ahead of it.
  const stream = new WebStream(
    {
      async pull(controller) {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason).finally(() => reader.releaseLock()),
    },
    { highWaterMark: 0 },
  );
  const standIn = raw instanceof WebResponse ? new WebResponse(stream, raw) : stream;
  return { standIn: standIn as unknown as R, reader };
}`;

const TAP_JS = `/**
 * drainguard: hands a parser a stand-in for a fetch Response (same status and headers) or for its body, read through a
 * reader of the real body held here, so that after the terminal event drainable() reads that reader to the end as raw
 * bytes instead of running the parser over the rest. Anything else is handed over unchanged, without a reader. See
 * drainguard's docs/rules/no-early-stream-close.md.
 */
function NAME(raw) {
  // The globals, also where the file declares something of the same name.
  const { Response: WebResponse, ReadableStream: WebStream } = globalThis;
  const body = raw instanceof WebResponse ? raw.body : raw instanceof WebStream ? raw : null;
  if (!body || body.locked) return { standIn: raw };
  const reader = body.getReader();
  // highWaterMark 0: the stand-in reads only when the parser asks, never ahead of it.
  const stream = new WebStream(
    {
      async pull(controller) {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason).finally(() => reader.releaseLock()),
    },
    { highWaterMark: 0 },
  );
  return { standIn: raw instanceof WebResponse ? new WebResponse(stream, raw) : stream, reader };
}`;

export type HelperKind = 'reader' | 'loop' | 'tap' | 'nodeStream';

export const HELPER_BASE_NAMES: Record<HelperKind, string> = { reader: 'drainReader', loop: 'drainable', tap: 'tapBody', nodeStream: 'drainNodeStream' };

/** The method of the loop helper that hands the rest of the stream to the background drain (the rule treats it as EOF). */
export const HAND_OFF_METHOD = DRAIN_HAND_OFF_METHOD;

/** The helper's text, named `name`, laid out like the file (indent unit, semicolons, line ending). */
export function helperText(kind: HelperKind, name: string, layout: Layout): string {
  const templates: Record<HelperKind, [string, string]> = { reader: [READER_TS, READER_JS], loop: [LOOP_TS, LOOP_JS], tap: [TAP_TS, TAP_JS], nodeStream: [NODE_STREAM_TS, NODE_STREAM_JS] };
  const template = templates[kind][layout.typescript ? 0 : 1];
  return template
    .replace('NAME', name)
    .split('\n')
    .map((line) => {
      const indent = /^( *)/.exec(line)![1];
      const laidOut = line.startsWith(' *') || line.startsWith(' */') ? line : layout.unit.repeat(indent.length / 2) + line.slice(indent.length);
      return layout.semi ? laidOut : laidOut.replace(/;$/, '');
    })
    .join(layout.eol);
}

/**
 * Whether the file already declares this helper (a file rewritten before): its sites then share it. A loop helper
 * written before it took a bodyReader (an older drainguard) is not this helper: new sites get one of another name.
 */
export function declaresHelper(text: string, name: string, kind?: HelperKind): boolean {
  const declaration = new RegExp(`drainguard:[^]*?\\*/\\s*(async\\s+)?function ${name}\\b`).exec(text);
  if (!declaration) return false;
  if (kind !== 'loop') return true;
  // The parameter list ends at the first `) {`; no type in it contains one.
  return /^(?:(?!\) \{)[^])*\bbodyReader\b/.test(text.slice(declaration.index + declaration[0].length));
}
