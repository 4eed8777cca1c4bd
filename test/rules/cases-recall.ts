/**
 * Cases for the shapes a sweep of code nobody tuned the rule to found missed or misread (issue 35, JavaScript and
 * TypeScript; the sweep is bench/corpus/SWEEP.md): a close made by a helper the completion branch
 * calls, protocol ends that are not words (a multipart body's closing boundary, Gradio's `close_stream`), compiled pipes
 * of untyped streams, and the false alarms of streams the code built itself, in-memory streams, and a timer's branch.
 * Each invalid case has a correct twin among the valid ones. Locations are written from the code (`locations.test.ts`
 * checks that each spans a close site, or the call of a helper for `helperClose`).
 */
import { src, type ExpectedError, type InvalidCase, type ValidCase } from './cases.js';

const at = (messageId: ExpectedError['messageId'], line: number, column: number, endColumn: number, data?: Record<string, string>): ExpectedError => ({
  messageId,
  line,
  column,
  endLine: line,
  endColumn,
  ...(data ? { data } : {}),
});

/** `src()` of a template, then each placeholder replaced by its text (written at the placeholder's indentation). */
function fill(template: string, values: Record<string, string>): string {
  let text = src(template);
  for (const [key, value] of Object.entries(values)) {
    text = text.replace(new RegExp(`^( *)(.*)${key}`, 'm'), (_whole, indent: string, before: string) => indent + before + value.split('\n').join(`\n${indent}`));
  }
  return text;
}

/** Gradio's session stream, reduced: a message callback sees `close_stream` and calls a helper that aborts the request. */
const helperAbortOnMessage = (onClose: string, afterLoop = ''): string =>
  fill(`
    function closeStream(status, controller) {
      status.open = false;
      controller.abort();
    }

    export async function openStream(url) {
      const status = { open: true };
      const controller = new AbortController();
      const source = { onmessage: null };
      source.onmessage = (event) => {
        if (JSON.parse(event.data).msg === 'close_stream') ON_CLOSE
      };
      const response = await fetch(url, { signal: controller.signal });
      try {
        for await (const text of response.body.pipeThrough(new TextDecoderStream())) {
          for (const line of text.split('\\n')) if (line.startsWith('data: ')) source.onmessage({ data: line.slice(6) });
        }
      } catch (error) {
        if (error.name !== 'AbortError') throw error;
      }
      AFTER_LOOP
      return status;
    }
  `, { ON_CLOSE: onClose, AFTER_LOOP: afterLoop });

/** A reader loop whose `[DONE]` branch runs `onDone`; `finish` cancels the reader it is given. */
const readerWithHelper = (helper: string, onDone: string): string =>
  fill(`
    HELPER

    export async function collect(url) {
      const reader = (await fetch(url)).body.getReader();
      const decoder = new TextDecoder();
      const out = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return out;
        const text = decoder.decode(value, { stream: true });
        if (text.includes('[DONE]')) {
          ON_DONE
        }
        out.push(text);
      }
    }
  `, { HELPER: helper, ON_DONE: onDone });

/** A multipart/mixed reader, Apollo's shape, compiled: read until the closing boundary, `return`, cancel in `finally`. */
const multipartReader = (onClosing: string): string =>
  fill(`
    export async function* consumeMultipartBody(response) {
      const decoder = new TextDecoder("utf-8");
      const boundary = "\\r\\n--" + boundaryOf(response.headers.get("content-type"));
      let buffer = "";
      const reader = response.body.getReader();
      let done = false;
      let encounteredBoundary = false;
      let value;
      const passedFinalBoundary = () => encounteredBoundary && buffer[0] == "-" && buffer[1] == "-";
      try {
        while (!done) {
          ({ value, done } = await reader.read());
          buffer += decoder.decode(value, { stream: !done });
          let bi = buffer.indexOf(boundary);
          while (bi > -1 && !passedFinalBoundary()) {
            encounteredBoundary = true;
            const message = buffer.slice(0, bi);
            buffer = buffer.slice(bi + boundary.length);
            if (message) yield message;
            bi = buffer.indexOf(boundary);
          }
          ON_CLOSING
        }
        throw new Error("premature end of multipart body");
      }
      finally {
        reader.cancel().catch(() => { });
      }
    }
  `, { ON_CLOSING: onClosing });

/** Daytona's log follower, reduced: a read raced against a timer; on the timer's branch a poll of the job, then cancel. */
const raceAgainstTimer = (onStop: string): string =>
  fill(`
    export async function follow(getStream, onChunk, shouldTerminate) {
      const res = await getStream();
      const reader = res.body.getReader();
      const TIMEOUT = Symbol();
      let readPromise = null;
      try {
        while (true) {
          if (!readPromise) readPromise = reader.read().then((r) => (r.done ? null : r.value));
          const timeoutPromise = new Promise((resolve) => setTimeout(() => resolve(TIMEOUT), 2000));
          const result = await Promise.race([readPromise, timeoutPromise]);
          if (result === TIMEOUT) {
            const stop = await shouldTerminate();
            if (stop) {
              ON_STOP
              break;
            }
          } else {
            readPromise = null;
            if (result === null) break;
            onChunk(result);
          }
        }
      } finally {
        await reader.cancel();
      }
    }
  `, { ON_STOP: onStop });

export const recallInvalid: InvalidCase[] = [
  // ------------------------------------------------------------ a close in a helper the completion branch calls
  {
    name: 'helper: the `close_stream` message calls a helper that aborts the controller whose signal went into the fetch',
    js: true,
    code: helperAbortOnMessage('closeStream(status, controller);'),
    errors: [
      at('helperClose', 11, 56, 87, {
        call: 'closeStream(status, controller)',
        stream: 'controller',
        method: 'abort',
        helper: 'closeStream',
        event: "JSON.parse(event.data).msg === 'close_stream'",
      }),
    ],
  },
  {
    name: 'helper: `[DONE]` calls a helper that cancels the reader in hand (drained, the helper as the give-up)',
    js: true,
    code: readerWithHelper('function finish(reader) {\n  return reader.cancel();\n}', 'finish(reader);\nreturn out;'),
    errors: [at('helperClose', 14, 7, 21, { call: 'finish(reader)', stream: 'reader', method: 'cancel', helper: 'finish', event: "text.includes('[DONE]')" })],
  },
  {
    name: 'helper: a helper of a helper, followed two calls deep',
    js: true,
    code: readerWithHelper('function finish(reader) {\n  return reader.cancel();\n}\nfunction end(r) {\n  finish(r);\n}', 'end(reader);\nreturn out;'),
    errors: [at('helperClose', 17, 7, 18, { call: 'end(reader)', stream: 'reader', method: 'cancel', helper: 'end', event: "text.includes('[DONE]')" })],
  },
  {
    name: 'helper: a method that aborts the request, then `break` out of the for await: one report, at the call',
    code: src(`
      class Conversation {
        private controller = new AbortController();
        private stop(): void {
          this.controller.abort();
        }
        async run(url: string): Promise<void> {
          const res = await fetch(url, { signal: this.controller.signal });
          for await (const event of iterSSE(res)) {
            if (event.type === 'message_stop') {
              this.stop();
              break;
            }
            handle(event);
          }
        }
      }
    `),
    errors: [at('helperClose', 10, 9, 20, { call: 'this.stop()', stream: 'this.controller', method: 'abort', helper: 'this.stop', event: "event.type === 'message_stop'" })],
  },
  {
    name: "helper (TS source): an AbortController kept on another object, of an origin the file does not show, guarded by `if (stream_status)`",
    code: src(`
      export async function open_stream(this: Client): Promise<void> {
        const { stream_status } = this;
        const that = this;
        const stream = this.stream(new URL(this.url));
        stream.onmessage = async function (event: MessageEvent) {
          const _data = JSON.parse(event.data);
          if (_data.msg === "close_stream") {
            close_stream(stream_status, that.abort_controller);
            return;
          }
          dispatch(_data);
        };
      }

      export function close_stream(stream_status: { open: boolean }, abort_controller: AbortController | null): void {
        if (stream_status) {
          stream_status.open = false;
          abort_controller?.abort();
        }
      }
    `),
    errors: [
      at('helperClose', 8, 7, 57, {
        call: 'close_stream(stream_status, that.abort_controll…',
        stream: 'that.abort_controller',
        method: 'abort',
        helper: 'close_stream',
        event: '_data.msg === "close_stream"',
      }),
    ],
  },
  {
    name: "vocabulary: Gradio's `close_stream` message is a terminal event (a direct abort of the request's controller)",
    js: true,
    code: src(`
      export async function session(url, onMessage) {
        const controller = new AbortController();
        const res = await fetch(url, { signal: controller.signal });
        for await (const event of iterSSE(res)) {
          const data = JSON.parse(event.data);
          if (data.msg === 'close_stream') controller.abort();
          else onMessage(data);
        }
      }
    `),
    errors: [at('explicitClose', 6, 38, 56, { stream: 'controller', method: 'abort', event: "data.msg === 'close_stream'" })],
  },

  // ------------------------------------------------------------ protocol ends that are not words: multipart/mixed
  {
    name: 'multipart: read until the closing boundary (`--` after it), `return`, `reader.cancel()` in `finally`',
    js: true,
    code: src(`
      export async function* parts(response, boundary = '\\r\\n---') {
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        try {
          while (true) {
            const { value, done } = await reader.read();
            if (done) throw new Error('premature end of multipart body');
            buffer += decoder.decode(value, { stream: true });
            let at;
            while ((at = buffer.indexOf(boundary)) > -1 && !buffer.startsWith('--', at + boundary.length)) {
              if (at > 0) yield buffer.slice(0, at);
              buffer = buffer.slice(at + boundary.length);
            }
            if (at > -1) {
              if (at > 0) yield buffer.slice(0, at);
              return;
            }
          }
        } finally {
          reader.cancel().catch(() => {});
        }
      }
    `),
    errors: [at('explicitClose', 21, 5, 20, { stream: 'reader', method: 'cancel', event: "buffer.startsWith('--', at + boundary.length)" })],
  },
  {
    name: "multipart (compiled, Apollo's shape): a predicate sees `--` where a boundary was met; the finally cancels",
    js: true,
    code: multipartReader('if (passedFinalBoundary()) {\n  return;\n}'),
    errors: [at('explicitClose', 29, 5, 20, { stream: 'reader', method: 'cancel', event: 'passedFinalBoundary()' })],
  },
  {
    name: 'multipart: a line that is the close delimiter (`--boundary--`) leaves the for await over the lines',
    code: src(`
      export async function* parts(res: Response, boundary: string): AsyncGenerator<string> {
        let part = '';
        for await (const line of readLines(res.body!)) {
          if (line === \`--\${boundary}--\`) return;
          if (line === \`--\${boundary}\`) {
            if (part) yield part;
            part = '';
          } else part += line;
        }
      }
    `),
    errors: [at('implicitClose', 4, 37, 44, { statement: 'return', stream: 'readLines(res.body!)', event: 'line === `--${boundary}--`' })],
  },

  // ------------------------------------------------------------ compiled pipes of untyped streams
  {
    name: 'pipe (shipped JS): an untyped parameter piped through a TextDecoderStream, then a TransformStream that terminates at the sentinel',
    js: true,
    code: src(`
      export function untilDone(readable, done) {
        return readable.pipeThrough(new TextDecoderStream()).pipeThrough(
          new TransformStream({
            transform(e, controller) {
              if (e === done) controller.terminate();
              else controller.enqueue(e);
            },
          }),
        );
      }
    `),
    errors: [at('explicitClose', 5, 25, 47, { stream: 'controller', method: 'terminate', event: 'e === done' })],
  },
  {
    name: 'pipe (shipped JS): for await over an untyped parameter piped through a TextDecoderStream, `return` at [DONE]',
    js: true,
    code: src(`
      export async function* lines(readable) {
        for await (const text of readable.pipeThrough(new TextDecoderStream())) {
          if (text.includes('[DONE]')) return;
          yield text;
        }
      }
    `),
    errors: [at('implicitClose', 3, 34, 41)],
  },
];

export const recallValid: ValidCase[] = [
  // ------------------------------------------------------------ helpers: correct twins
  {
    name: 'helper twin: the `close_stream` message only sets a flag; the helper runs after the body was read to its end',
    js: true,
    code: helperAbortOnMessage('status.closing = true;', 'closeStream(status, controller);'),
  },
  {
    name: 'helper twin: the helper is called after EOF',
    js: true,
    code: src(`
      function finish(reader) {
        return reader.cancel();
      }
      export async function collect(url) {
        const reader = (await fetch(url)).body.getReader();
        let sawDone = false;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (new TextDecoder().decode(value).includes('[DONE]')) sawDone = true;
        }
        finish(reader);
        return sawDone;
      }
    `),
  },
  {
    name: 'helper twin: a helper that reads the reader it is given to its end before it cancels (a drain of its own)',
    js: true,
    code: readerWithHelper('async function drainThenCancel(reader) {\n  while (!(await reader.read()).done) {}\n  await reader.cancel();\n}', 'await drainThenCancel(reader);\nreturn out;'),
  },
  {
    name: 'helper twin: the helper aborts a controller whose signal never went into a request',
    js: true,
    code: src(`
      function stop(controller) {
        controller.abort();
      }
      export async function watch(url) {
        const controller = new AbortController();
        watchdog(controller.signal);
        const res = await fetch(url);
        for await (const event of iterSSE(res)) {
          if (event.type === 'message_stop') stop(controller);
        }
      }
    `),
  },
  {
    name: 'helper twin: the helper closes only on an error branch of its own',
    js: true,
    code: readerWithHelper('function check(reader, error) {\n  if (error) reader.cancel();\n}', 'check(reader, null);\nreturn out;'),
  },
  {
    name: 'helper twin: the helper is called in a catch block',
    js: true,
    code: readerWithHelper('function finish(reader) {\n  return reader.cancel();\n}', 'try {\n  emit(text);\n} catch {\n  finish(reader);\n}'),
  },
  {
    name: 'unseen controller twin: an AbortController of unseen origin aborted after the response was read to its end',
    js: true,
    code: src(`
      export async function collect(res, abortController) {
        let sawStop = false;
        for await (const event of iterSSE(res)) {
          if (event.type === 'message_stop') sawStop = true;
        }
        if (sawStop) abortController.abort();
      }
    `),
  },

  // ------------------------------------------------------------ multipart: correct twins
  {
    name: 'multipart twin: the closing boundary is remembered, the reader is read to its end, then the finally cancels',
    js: true,
    code: multipartReader('if (passedFinalBoundary()) {\n  sawEnd = true;\n}').replace('let value;', 'let value;\n  let sawEnd = false;').replace('throw new Error(', 'if (!sawEnd) throw new Error('),
  },
  {
    name: "multipart twin: `'--' + boundary` is the delimiter between parts, not the end",
    js: true,
    code: src(`
      export async function* parts(res, boundary) {
        for await (const line of readLines(res.body)) {
          if (line === '--' + boundary) {
            yield 'part';
            continue;
          }
          if (line.startsWith('--' + boundary)) break;
        }
      }
    `),
  },

  // ------------------------------------------------------------ streams the code built itself, in-memory streams
  {
    name: 'self-built: a ReadableStream whose start() reads the response to EOF; breaking out of the loop over it closes nothing on the wire',
    code: src(`
      export async function* events(url: string): AsyncGenerator<Uint8Array> {
        const response = await fetch(url);
        const responseStream: ReadableStream<Uint8Array> = new ReadableStream({
          async start(controller) {
            const reader = response.body!.getReader();
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              controller.enqueue(value);
            }
            controller.close();
          },
        });
        for await (const chunk of responseStream) {
          if (new TextDecoder().decode(chunk).includes('[DONE]')) break;
          yield chunk;
        }
      }
    `),
  },
  {
    name: 'in memory: a ReadableStream built from an array in a test helper, annotated ReadableStream, read and cancelled',
    filename: 'stream.test.ts',
    code: src(`
      function fromArray(items: string[]): ReadableStream<string> {
        return new ReadableStream({
          start(controller) {
            for (const item of items) controller.enqueue(item);
            controller.close();
          },
        });
      }
      async function collect(stream: ReadableStream<string>): Promise<string[]> {
        const out: string[] = [];
        for await (const chunk of stream) {
          if (chunk === '[DONE]') break;
          out.push(chunk);
        }
        return out;
      }
      it('stops at [DONE]', async () => {
        expect(await collect(fromArray(['a', '[DONE]', 'b']))).toEqual(['a']);
        const body: ReadableStream<string> = fromArray(['[DONE]']);
        const reader = body.getReader();
        const { value } = await reader.read();
        if (value === '[DONE]') await reader.cancel();
      });
    `),
  },
  {
    name: 'in memory: an untyped parameter piped through a TextDecoderStream, given an in-memory stream by every call of the module',
    js: true,
    code: src(`
      async function* lines(readable) {
        for await (const text of readable.pipeThrough(new TextDecoderStream())) {
          if (text.includes('[DONE]')) return;
          yield text;
        }
      }
      export async function run() {
        const out = [];
        for await (const text of lines(ReadableStream.from([new TextEncoder().encode('[DONE]')]))) out.push(text);
        return out;
      }
    `),
  },

  // ------------------------------------------------------------ a timer's branch
  {
    name: "timer's branch: a read raced against a timer; the cancel after polling a job's state through another API is a timeout close",
    js: true,
    code: raceAgainstTimer('await reader.cancel();'),
  },
];

/** With type information (test/rules/fixtures/typed): in-memory streams typed ReadableStream are still not HTTP bodies. */
export const recallTypedValid: ValidCase[] = [
  {
    name: 'in memory, with types: a ReadableStream built from an array, typed by its function, broken out of at [DONE]',
    code: src(`
      function fromArray(items: string[]): ReadableStream<string> {
        return new ReadableStream({
          start(controller) {
            for (const item of items) controller.enqueue(item);
            controller.close();
          },
        });
      }
      export async function collect(): Promise<string[]> {
        const stream = fromArray(['a', '[DONE]', 'b']);
        const out: string[] = [];
        for await (const chunk of stream) {
          if (chunk === '[DONE]') break;
          out.push(chunk);
        }
        return out;
      }
    `),
    options: [{ useTypes: true }],
  },
];
