/**
 * Cases for shapes met in published packages nobody wrote for us (issue 17): each correct shape that once raised a
 * false alarm stays quiet, next to a twin that is a real early close; and the shapes compiled bundles hide (a reader
 * returned by a local function, a request helper's result, an untyped `x.body`, a helper that returns on the terminal
 * event). Locations are written from the code (`locations.test.ts` checks that each spans a close site).
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

/** A bundled `requestStream`: lines are split per chunk, `[DONE]` is looked for in the inner per-line loop. */
const requestStream = (onDone: string): string =>
  src(`
    class Client {
      async *requestStream(request) {
        const { response } = await this.requestWithBackoff(request);
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        try {
          read: while (true) {
            const { done, value } = await reader.read();
            if (done) {
              break;
            }
            for (const chunk of decoder.decode(value, { stream: true }).split("\\n").filter(Boolean)) {
              const data = chunk.slice(6);
              if (data === "[DONE]") {
                ${onDone}
              }
              yield JSON.parse(data);
            }
          }
        } finally {
          await reader.cancel();
        }
      }
    }
  `);

/** A server copies an in-process handler's Response body into its own ServerResponse, until `until` holds. */
const copyToServerResponse = (until: string): string =>
  src(`
    async function writeResponse(handlerResponse, res) {
      const reader = handlerResponse.body.getReader();
      let resolveClosed;
      const closed = new Promise((resolve) => {
        resolveClosed = () => resolve(undefined);
      });
      res.once("close", resolveClosed);
      try {
        while (!res.writableEnded && !res.destroyed) {
          const read = reader.read();
          read.catch(() => {});
          const result = await Promise.race([read, closed]);
          if (!result || result.done) break;
          if (${until}) break;
          res.write(result.value);
        }
      } finally {
        res.off("close", resolveClosed);
        await reader.cancel().catch(() => {});
      }
      res.end();
    }
  `);

/** graphql-sse's distinct-connections mode: a background task queues the events, `getResults()` returns at `complete`. */
const distinctConnections = (afterResults: string): string =>
  src(`
    async function connect({ signal, url, headers, body, fetchFn }) {
      const res = await fetchFn(url, { signal, method: "POST", headers: { ...headers, accept: "text/event-stream" }, body });
      const queue = [];
      const waiting = [];
      (async () => {
        for await (const chunk of toAsyncIterable(res.body)) {
          for (const msg of parse(chunk)) {
            queue.push(msg.event === "complete" ? "complete" : msg.data);
            waiting.shift()?.();
          }
        }
      })();
      return {
        async *getResults() {
          for (;;) {
            while (queue.length) {
              const result = queue.shift();
              if (result === "complete") return;
              yield result;
            }
            await new Promise((resolve) => waiting.push(resolve));
          }
        },
      };
    }
    function subscribe(request, sink, { url, headers, fetchFn, AbortControllerImpl }) {
      const control = new AbortControllerImpl();
      (async () => {
        const { getResults } = await connect({ signal: control.signal, url, headers, body: JSON.stringify(request), fetchFn });
        for await (const result of getResults()) sink.next(result);
        ${afterResults}
      })().then(() => sink.complete());
      return () => control.abort();
    }
  `);

/** A compiled provider: the reader comes from a local `openReader()` over a request helper, kept in `let currentReader`. */
const compiledInteractions = (onCompleted: string): string =>
  src(`
    function streamInteractionEvents({ baseURL, headers, fetch, abortSignal }) {
      let complete = false;
      let currentReader;
      async function openReader() {
        const { value: stream } = await (0, import_provider_utils.getFromApi)({
          url: \`\${baseURL}/interactions?stream=true\`,
          headers: { ...headers, accept: "text/event-stream" },
          successfulResponseHandler: (0, import_provider_utils.createEventSourceResponseHandler)(eventSchema),
          abortSignal,
          fetch
        });
        return stream.getReader();
      }
      return new ReadableStream({
        async start(controller) {
          try {
            while (true) {
              if (currentReader == null) currentReader = await openReader();
              const { done, value } = await currentReader.read();
              if (done) {
                currentReader = void 0;
                if (complete) break;
                continue;
              }
              if (value.event_type === "interaction.completed") ${onCompleted}
              controller.enqueue(value);
            }
            controller.close();
          } finally {
            currentReader == null ? void 0 : currentReader.cancel().catch(() => {
            });
            currentReader = void 0;
          }
        }
      });
    }
  `);

/** Workers read their bodies until the shared state says stop; `setter` runs on each chunk. The consumer sets `state.finished` in a `finally`. */
const parallelDownload = (setter: string): string => `export function download(urls: string[]) {
  const state = { error: undefined as unknown, finished: false };
  async function worker(url: string) {
    const reader = (await fetch(url)).body!.getReader();
    try {
      for (;;) {
        if (state.error || state.finished) return;
        const { done, value } = await reader.read();
        if (done) break;
        ${setter}
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
  async function* chunks() {
    try {
      yield* produce(urls.map(worker));
    } finally {
      state.finished = true;
    }
  }
  return chunks();
}
`;

/** A poller that stops when its `finished` field is set; `setter` runs on each chunk, and stop() sets it too. */
const poller = (setter: string): string => `export class Poller {
  private finished = false;
  private reader?: ReadableStreamDefaultReader<Uint8Array>;

  async run(url: string): Promise<void> {
    this.reader = (await fetch(url)).body!.getReader();
    for (;;) {
      const { done, value } = await this.reader.read();
      if (done) return;
      ${setter}
      if (this.finished) {
        await this.reader.cancel();
        return;
      }
    }
  }

  stop(): void {
    this.finished = true;
  }
}
`;

export const foreignCodeInvalid: InvalidCase[] = [
  // ------------------------------------------------ a flag named for completion counts where it is set on the terminal event
  {
    name: 'flag: `state.finished` set on the `[DONE]` chunk makes the worker return, and its `finally` cancels before EOF',
    code: parallelDownload("if (decode(value) === '[DONE]') state.finished = true;"),
    errors: [at('explicitClose', 13, 13, 28, { stream: 'reader', method: 'cancel', event: "decode(value) === '[DONE]'" })],
  },
  {
    name: 'flag: a field `finished` set on a `done` event stops the poller, which cancels before EOF',
    code: poller("if (decode(value).type === 'done') this.finished = true;"),
    errors: [at('explicitClose', 12, 15, 35, { stream: 'this.reader', method: 'cancel', event: 'this.finished' })],
  },
  // ------------------------------------------------ catch and finally are reached by errors and early returns
  {
    name: 'finally: `break read` on [DONE] leaves the read loop itself, so the cancel in `finally` comes before EOF',
    js: true,
    code: requestStream('break read;'),
    errors: [at('explicitClose', 21, 13, 28, { stream: 'reader', method: 'cancel', event: 'data === "[DONE]"' })],
  },
  {
    name: 'finally: `return` on [DONE] reaches the cancel in `finally` before EOF',
    js: true,
    code: requestStream('return;'),
    errors: [at('explicitClose', 21, 13, 28, { stream: 'reader', method: 'cancel', event: 'data === "[DONE]"' })],
  },
  // ------------------------------------------------ the side we write to is not the body we read
  {
    name: 'writable state: the copy also stops at a body event (`response.completed`), and that stop is early',
    js: true,
    code: copyToServerResponse('result.value.type === "response.completed"'),
    errors: [at('explicitClose', 19, 11, 26, { stream: 'reader', method: 'cancel', event: 'result.value.type === "response.completed"' })],
  },
  // ------------------------------------------------ a called function that returns on the terminal event
  {
    name: 'helper: a generator returns at the `complete` event; the caller aborts the request after running it out',
    js: true,
    code: distinctConnections('return control.abort();'),
    errors: [at('explicitClose', 31, 12, 27, { stream: 'control', method: 'abort', event: 'result === "complete"' })],
  },
  {
    name: 'helper: an awaited function returns at `message_stop`; the caller cancels the reader after it',
    code: src(`
      async function readUntilStop(reader: ReadableStreamDefaultReader<Event>, onEvent: (event: Event) => void) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          onEvent(value);
          if (value.type === 'message_stop') return;
        }
      }
      export async function complete(url: string, onEvent: (event: Event) => void) {
        const response = await fetch(url);
        const reader = response.body!.pipeThrough(new EventParser()).getReader();
        await readUntilStop(reader, onEvent);
        await reader.cancel();
      }
    `),
    errors: [at('explicitClose', 13, 9, 24, { stream: 'reader', method: 'cancel', event: "value.type === 'message_stop'" })],
  },
  // ------------------------------------------------ readers that compiled bundles hide
  {
    name: 'compiled: a reader returned by a local function over a request helper, cancelled in `finally` after the completion ended the loop',
    js: true,
    code: compiledInteractions('{\n                complete = true;\n                break;\n              }'),
    // The message quotes the loop's own completion test (`complete`, set on the event, read after EOF).
    errors: [at('explicitClose', 33, 42, 64, { stream: 'currentReader', method: 'cancel', event: 'complete' })],
  },
  {
    name: 'compiled: `getReader()` of what a request-shaped call returned is a response reader',
    js: true,
    code: src(`
      async function* streamText({ url, headers, body, abortSignal }) {
        const stream = await postToApi({ url, headers, body, abortSignal });
        const reader = stream.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          if (value.data === "[DONE]") {
            await reader.cancel();
            return;
          }
          yield value;
        }
      }
    `),
    errors: [at('explicitClose', 8, 13, 28, { stream: 'reader', method: 'cancel', event: 'value.data === "[DONE]"' })],
  },
  // ------------------------------------------------ `x.body` used as a web stream is a fetch body, whatever `x` is called
  {
    name: 'untyped short name: `r.body.getReader()` of a parameter named `r`',
    js: true,
    code: src(`
      async function f(r) {
        const reader = r.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          if (value.includes("message_stop")) {
            await reader.cancel();
            break;
          }
        }
      }
    `),
    errors: [at('explicitClose', 7, 13, 28, { stream: 'reader', method: 'cancel', event: 'value.includes("message_stop")' })],
  },
  {
    name: 'untyped short name: `break` out of `for await` over `x.body`',
    js: true,
    code: src(`
      async function f(x, onEvent) {
        for await (const chunk of x.body) {
          const event = decode(chunk);
          if (event.type === "done") break;
          onEvent(event);
        }
      }
    `),
    errors: [at('implicitClose', 4, 32, 38, { statement: 'break', stream: 'x.body', event: 'event.type === "done"' })],
  },
  {
    name: 'untyped short name: `x.body.cancel()` after the terminal event',
    js: true,
    code: src(`
      async function f(x) {
        const reader = x.body.getReader();
        const { value } = await reader.read();
        if (value.type === "message_stop") await x.body.cancel();
      }
    `),
    errors: [at('explicitClose', 4, 44, 59, { stream: 'x.body', method: 'cancel', event: 'value.type === "message_stop"' })],
  },
];

export const foreignCodeValid: ValidCase[] = [
  // ------------------------------------------------ a flag set only off every terminal event is no terminal event
  {
    name: 'flag: `state.finished` is set only in the consumer\'s `finally` (it stopped, or another worker failed): the workers\' cancel is a cancel',
    code: parallelDownload('consume(value);'),
  },
  {
    name: 'flag: a field `finished` set only by stop() (the caller stopping) is a cancel, not a terminal event',
    code: poller('handle(value);'),
  },
  {
    name: 'finally: `[DONE]` only leaves the per-line loop; the read loop goes on to `done`, so the cancel in `finally` is after EOF',
    js: true,
    code: requestStream('break;'),
  },
  {
    name: 'finally: the consumer stopping at the `yield` after the terminal event reaches the cancel in `finally` (its stop is exempt)',
    js: true,
    code: src(`
      async function* events(response) {
        const reader = response.body.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            if (value.type === "message_stop") {
              yield value;
              continue;
            }
            yield value;
          }
        } finally {
          reader.cancel();
        }
      }
    `),
  },
  {
    name: 'catch: a read that fails after the terminal event reaches the close after the `catch` only through the error',
    js: true,
    code: src(`
      async function consume(response, onEvent) {
        const reader = response.body.getReader();
        let stopped = false;
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (value.type === "message_stop") stopped = true;
            onEvent(value);
          }
          return stopped;
        } catch (error) {
          report(error);
        }
        await reader.cancel();
      }
    `),
  },
  {
    name: "writable state: the copy stops when the ServerResponse is ended or destroyed (`writableEnded`), not at a body event",
    js: true,
    code: copyToServerResponse('res.writableFinished'),
  },
  {
    name: 'writable state: `finished` of an object this code writes to is the state of that object',
    js: true,
    code: src(`
      async function copy(response, out) {
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (out.finished) {
            await reader.cancel();
            break;
          }
          out.write(value);
        }
      }
    `),
  },
  {
    name: 'raced and assigned reads: `(result = await reader.read()).done` is EOF',
    js: true,
    code: src(`
      async function* streamBody(response) {
        var reader = response.body.getReader();
        var result;
        try {
          while (!(result = await reader.read()).done) yield result.value;
        } finally {
          reader.cancel();
        }
      }
    `),
  },
  {
    name: 'helper: after running the generator out the caller waits for the connection instead of aborting it',
    js: true,
    code: distinctConnections('await waitForEnd();'),
  },
  {
    name: 'helper: a function that returns only at EOF, then a cancel, is after EOF',
    code: src(`
      async function readAll(reader: ReadableStreamDefaultReader<Event>, onEvent: (event: Event) => void) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          onEvent(value);
        }
      }
      export async function complete(url: string, onEvent: (event: Event) => void) {
        const response = await fetch(url);
        const reader = response.body!.pipeThrough(new EventParser()).getReader();
        await readAll(reader, onEvent);
        await reader.cancel();
      }
    `),
  },
  {
    name: 'compiled: the completion only marks the reconnecting loop done; it reads on to EOF before the `finally`',
    js: true,
    code: compiledInteractions('complete = true;'),
  },
  {
    name: 'compiled: `getReader()` of a stream built from local data (no request) is no response reader',
    js: true,
    code: src(`
      async function drainItems(items) {
        const stream = toReadableStream({ items, highWaterMark: 4 });
        const reader = stream.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          if (value.type === "done") {
            await reader.cancel();
            return;
          }
        }
      }
    `),
  },
  {
    name: 'untyped short name: `x.body` read to the end before it is cancelled',
    js: true,
    code: src(`
      async function f(x, onEvent) {
        let sawDone = false;
        for await (const chunk of x.body) {
          const event = decode(chunk);
          if (event.type === "done") sawDone = true;
          else onEvent(event);
        }
        if (sawDone) await x.body.cancel();
      }
    `),
  },
  {
    name: "untyped short name: a request's parsed `body` that is not used as a stream is no body",
    js: true,
    code: src(`
      function onJob(req, job) {
        if (req.body.done) job.cancel();
      }
    `),
  },
];
