/**
 * Small source files for the CLI tests. Positions in the comments are counted from the text
 * itself (1-based columns), not copied from tool output.
 */

/**
 * The canonical early close. Line 9 is `      await reader.cancel();`: 6 spaces and `await `
 * (12 characters) precede the call, so `reader.cancel()` (15 characters) spans columns 13–28.
 */
export const EARLY_CANCEL_JS = `export async function readUntilDone(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value);
    if (text.includes('[DONE]')) {
      await reader.cancel();
      break;
    }
  }
}
`;
export const EARLY_CANCEL_POSITION = { line: 9, column: 13, endLine: 9, endColumn: 28 };

/**
 * An implicit close. Line 4 is `    if (event.type === 'message_stop') break;`: 4 spaces and
 * `if (event.type === 'message_stop') ` (35 characters) precede `break;` (6 characters),
 * so the statement spans columns 40–46.
 */
export const FOR_AWAIT_BREAK_JS = `export async function collect(url, parseEvents) {
  const response = await fetch(url);
  for await (const event of parseEvents(response.body)) {
    if (event.type === 'message_stop') break;
  }
}
`;
export const FOR_AWAIT_BREAK_POSITION = { line: 4, column: 40, endLine: 4, endColumn: 46 };

/** The same as EARLY_CANCEL_JS in TypeScript, with annotations (line 9, columns 13–28 again). */
export const EARLY_CANCEL_TS = `export async function readUntilDone(res: Response): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const text: string = decoder.decode(value);
    if (text.includes('[DONE]')) {
      await reader.cancel();
      break;
    }
  }
}
`;

/**
 * Only type information shows that \`events\` is a response body (an inferred
 * \`ReadableStream<Uint8Array>\`): syntax-only linting does not report it, \`--types\` does.
 * Line 14 is `      await reader.cancel();` (columns 13–28).
 */
export const INFERRED_STREAM_TS = `/** Declared elsewhere: only its type says that it returns a fetch body. */
declare function openEvents(
  url: string,
): Promise<ReadableStream<Uint8Array>>;

export async function firstDone(url: string): Promise<void> {
  const events = await openEvents(url);
  const reader = events.getReader();
  const decoder = new TextDecoder();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (decoder.decode(value).includes('[DONE]')) {
      await reader.cancel();
      break;
    }
  }
}
`;
export const INFERRED_STREAM_POSITION = { line: 14, column: 13, endLine: 14, endColumn: 28 };

/** Drains to EOF before finishing: no report. */
export const DRAINED_JS = `export async function readAll(res) {
  const reader = res.body.getReader();
  let sawDone = false;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (sawDone) continue;
    if (new TextDecoder().decode(value).includes('[DONE]')) sawDone = true;
  }
  await reader.cancel();
}
`;

/** No close method name and no \`for await\`: the pre-filter skips it without parsing. */
export const NO_CLOSE_WORDS_JS = `export function add(a, b) {
  return a + b;
}
`;

/** Does not parse. Its text contains a close name, so it is not skipped by the pre-filter. */
export const UNPARSABLE_JS = `export async function broken(res) {
  const reader = res.body.getReader(;
  await reader.cancel();
}
`;

/** Does not parse either, and has no close words: the pre-filter would skip it. */
export const UNPARSABLE_NO_CLOSE_WORDS_JS = `export const = 1;
`;

/** A declaration file that mentions a close (it must not be walked). */
export const DECLARATION_TS = `export declare function stop(reader: ReadableStreamDefaultReader): Promise<void>;
export declare const reader: { cancel(): void };
`;

/** A close in a \`.tsx\` component (JSX must parse). Line 9 is `        await reader.cancel();` (columns 15–30). */
export const EARLY_CANCEL_TSX = `export function Chat({ url }: { url: string }) {
  async function load(): Promise<void> {
    const res = await fetch(url);
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (new TextDecoder().decode(value).includes('[DONE]')) {
        await reader.cancel();
        break;
      }
    }
  }
  return <button onClick={() => void load()}>load</button>;
}
`;
export const EARLY_CANCEL_TSX_POSITION = { line: 9, column: 15, endLine: 9, endColumn: 30 };

/** Sloppy-mode CommonJS in a \`.js\` file (\`with\` is a syntax error in an ES module). */
export const SLOPPY_SCRIPT_JS = `var config = { debug: false };
with (config) { debug = true; }
module.exports = function readUntilDone(res) {
  var reader = res.body.getReader();
  return reader.read().then(function step(chunk) {
    if (chunk.done) return;
    if (String(chunk.value).indexOf('[DONE]') >= 0) return reader.cancel();
    return reader.read().then(step);
  });
};
`;

/**
 * A close the default options do not see: `stop()` is no default close method and `'eos'` no default
 * completion word. Line 7 is `      await reader.stop();`: 12 characters precede `reader.stop()` (13
 * characters), so it spans columns 13–26.
 */
export const EOS_STOP_JS = `export async function untilEos(res) {
  const reader = res.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value === 'eos') {
      await reader.stop();
      return;
    }
  }
}
`;
export const EOS_STOP_POSITION = { line: 7, column: 13, endLine: 7, endColumn: 26 };
