/**
 * Cases for the shapes published SDKs ship (Fern's stream template, done-or-error tests, Node callback
 * streams, one report per site, hand-written budgeted drains, which test the message quotes), each in
 * its plain, compiled (`__asyncValues`, `__awaiter`) and TS or JS form. Locations are written from the
 * code (`locations.test.ts` checks that each spans a close site).
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

/** TypeScript's ES2017 output of an async generator method, the way Fern SDKs ship it (helpers elided). */
const COMPILED_FERN_STREAM = src(`
  class Stream {
      constructor({ stream, parse, eventShape }) {
          this.stream = stream;
          this.parse = parse;
          this.streamTerminator = eventShape.streamTerminator;
          this.decoder = new TextDecoder("utf-8");
      }
      iterMessages() {
          return __asyncGenerator(this, arguments, function* iterMessages_1() {
              var _a, e_1, _b, _c;
              const stream = readableStreamAsyncIterable(this.stream);
              let buf = "";
              try {
                  for (var _d = true, stream_1 = __asyncValues(stream), stream_1_1; stream_1_1 = yield __await(stream_1.next()), _a = stream_1_1.done, !_a; _d = true) {
                      _c = stream_1_1.value;
                      _d = false;
                      const chunk = _c;
                      buf += this.decodeChunk(chunk);
                      let index;
                      while ((index = buf.indexOf("\\n")) >= 0) {
                          const line = buf.slice(0, index);
                          buf = buf.slice(index + 1);
                          if (this.streamTerminator != null && line.includes(this.streamTerminator)) {
                              return yield __await(void 0);
                          }
                          const message = yield __await(this.dispatch(line));
                          if (message == null) {
                              return yield __await(void 0);
                          }
                          yield yield __await(message);
                      }
                  }
              }
              catch (e_1_1) { e_1 = { error: e_1_1 }; }
              finally {
                  try {
                      if (!_d && !_a && (_b = stream_1.return)) yield __await(_b.call(stream_1));
                  }
                  finally { if (e_1) throw e_1.error; }
              }
          });
      }
      dispatch(line) {
          return __awaiter(this, void 0, void 0, function* () {
              if (this.streamTerminator != null && line.includes(this.streamTerminator)) {
                  return null;
              }
              return this.parse(JSON.parse(line));
          });
      }
      decodeChunk(chunk) {
          return this.decoder.decode(chunk, { stream: true });
      }
  }
`);

export const sdkShapeInvalid: InvalidCase[] = [
  // ------------------------------------------------------------ Fern's stream template
  {
    name: 'Fern (TS source): a `stream` field set from the constructor option, iterated and decoded, returned out of on the terminator',
    code: src(`
      export class Stream<T> implements AsyncIterable<T> {
        private stream: unknown;
        private streamTerminator: string | undefined;
        private decoder = new TextDecoder('utf-8');
        constructor({ stream, terminator }: { stream: unknown; terminator?: string }) {
          this.stream = stream;
          this.streamTerminator = terminator;
        }
        async *[Symbol.asyncIterator](): AsyncIterator<T> {
          const stream = readableStreamAsyncIterable(this.stream);
          let buf = '';
          for await (const chunk of stream) {
            buf += this.decoder.decode(chunk as Uint8Array, { stream: true });
            let index: number;
            while ((index = buf.indexOf('\\n')) >= 0) {
              const line = buf.slice(0, index);
              buf = buf.slice(index + 1);
              if (this.streamTerminator != null && line.includes(this.streamTerminator)) {
                return;
              }
              yield JSON.parse(line) as T;
            }
          }
        }
      }
    `),
    errors: [at('implicitClose', 19, 11, 18, { statement: 'return', stream: 'stream', event: 'line.includes(this.streamTerminator)' })],
  },
  {
    name: 'Fern (compiled): downleveled for-await over the `stream` field, `return yield __await(void 0)` on the terminator and after a dispatcher that returns null on it',
    js: true,
    code: COMPILED_FERN_STREAM,
    errors: [
      at('implicitClose', 24, 29, 58, { statement: 'return', stream: 'stream', event: 'line.includes(this.streamTerminator)' }),
      at('implicitClose', 28, 29, 58, { statement: 'return', stream: 'stream', event: 'line.includes(this.streamTerminator)' }),
    ],
  },
  {
    name: 'Fern (TS source): the terminator test lives in a same-class method that returns null exactly on it',
    code: src(`
      class Stream<T> {
        constructor(private readonly stream: unknown, private readonly terminator?: string) {}
        private async dispatch(data: string): Promise<T | null> {
          if (this.terminator !== undefined && data.includes(this.terminator)) {
            return null;
          }
          return JSON.parse(data) as T;
        }
        async *events(): AsyncGenerator<T> {
          const decoder = new TextDecoder();
          for await (const chunk of this.stream as AsyncIterable<Uint8Array>) {
            const event = await this.dispatch(decoder.decode(chunk));
            if (event == null) return;
            yield event;
          }
        }
      }
    `),
    errors: [at('implicitClose', 13, 26, 33, { statement: 'return', stream: 'this.stream as AsyncIterable<Uint8Array>', event: 'data.includes(this.terminator)' })],
  },
  {
    name: 'Fern (JS): a module function that returns undefined on the terminator, tested with `!event`',
    js: true,
    code: src(`
      function parseEvent(data, terminator) {
        if (data === terminator || data === '[DONE]') return undefined;
        return JSON.parse(data);
      }
      export async function* events(body, terminator) {
        const decoder = new TextDecoder();
        for await (const chunk of body) {
          const event = parseEvent(decoder.decode(chunk), terminator);
          if (!event) return;
          yield event;
        }
      }
    `),
    errors: [at('implicitClose', 9, 17, 24, { statement: 'return', stream: 'body', event: 'data === terminator' })],
  },
  {
    name: 'Fern (JS): a `body` parameter iterated as bytes, `terminator !== undefined && line === "[DONE]"` is the terminal test',
    js: true,
    code: src(`
      export async function* lines(body, terminator) {
        const decoder = new TextDecoder();
        for await (const chunk of body) {
          const line = decoder.decode(chunk).trim();
          if (terminator !== undefined && line === '[DONE]') break;
          yield line;
        }
      }
    `),
    errors: [at('implicitClose', 5, 56, 62, { statement: 'break', stream: 'body', event: "line === '[DONE]'" })],
  },
  {
    name: 'Fern (JS): a compiled `__awaiter` generator that iterates a `stream` parameter as bytes',
    js: true,
    code: src(`
      function readAll(stream, onLine) {
          var _a, e_1, _b, _c;
          return __awaiter(this, void 0, void 0, function* () {
              const decoder = new TextDecoder();
              try {
                  for (var _d = true, stream_1 = __asyncValues(stream), stream_1_1; stream_1_1 = yield stream_1.next(), _a = stream_1_1.done, !_a; _d = true) {
                      _c = stream_1_1.value;
                      _d = false;
                      const text = decoder.decode(_c);
                      if (text.includes('event: done'))
                          return;
                      onLine(text);
                  }
              }
              catch (e_1_1) { e_1 = { error: e_1_1 }; }
              finally {
                  try {
                      if (!_d && !_a && (_b = stream_1.return)) yield _b.call(stream_1);
                  }
                  finally { if (e_1) throw e_1.error; }
              }
          });
      }
    `),
    errors: [at('implicitClose', 11, 21, 28, { statement: 'return', stream: 'stream', event: "text.includes('event: done')" })],
  },

  {
    name: 'compiled optional chaining: `item === null || item === void 0 ? void 0 : item.done` is the test of `item.done`',
    js: true,
    code: src(`
      function eventStream(responseBody, parse) {
          const upstream = responseBody.getReader();
          return new ReadableStream({
              pull(downstream) {
                  return __awaiter(this, void 0, void 0, function* () {
                      const chunk = yield upstream.read();
                      if (chunk.done)
                          return downstream.close();
                      const item = parse(chunk.value);
                      if (item === null || item === void 0 ? void 0 : item.done) {
                          yield upstream.cancel("done");
                          return downstream.close();
                      }
                      return downstream.enqueue(item.value);
                  });
              },
          });
      }
    `),
    errors: [at('explicitClose', 11, 27, 50, { stream: 'upstream', method: 'cancel', event: 'item.done' })],
  },

  // ------------------------------------------------------------ done-or-error disjunctions
  {
    name: 'disjunction: `completed || error` sets the completion flag; the cancel after the loop is early',
    js: true,
    code: src(`
      async function run(url) {
        const res = await fetch(url);
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          const event = JSON.parse(decoder.decode(value));
          if (event.type === 'interaction.completed' || event.type === 'error') break;
        }
        await reader.cancel();
      }
    `),
    errors: [at('explicitClose', 11, 9, 24, { stream: 'reader', method: 'cancel', event: "event.type === 'interaction.completed'" })],
  },
  {
    name: 'disjunction: a JSON-RPC reply check `"result" in m || "error" in m` (an error reply is a reply)',
    code: src(`
      async function call(url: string, request: object) {
        const response = await fetch(url, { method: 'POST', body: JSON.stringify(request) });
        const reader = response.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) throw new Error('no reply');
          const message = JSON.parse(new TextDecoder().decode(value));
          if ('result' in message || 'error' in message) {
            await reader.cancel();
            return message;
          }
        }
      }
    `),
    errors: [at('explicitClose', 9, 13, 28, { stream: 'reader', method: 'cancel', event: "'result' in message" })],
  },
  {
    name: 'disjunction (compiled): the same reply check in an `__awaiter` body',
    js: true,
    code: src(`
      function call(url, request) {
          return __awaiter(this, void 0, void 0, function* () {
              const response = yield fetch(url, { method: 'POST', body: JSON.stringify(request) });
              const reader = response.body.getReader();
              for (;;) {
                  const { done, value } = yield reader.read();
                  if (done)
                      throw new Error('no reply');
                  const message = JSON.parse(new TextDecoder().decode(value));
                  if ('result' in message || 'error' in message) {
                      yield reader.cancel();
                      return message;
                  }
              }
          });
      }
    `),
    errors: [at('explicitClose', 11, 23, 38, { stream: 'reader', method: 'cancel', event: "'result' in message" })],
  },

  // ------------------------------------------------------------ Node callback streams
  {
    name: "Node callbacks: http.get response destroyed in its 'data' handler after a completed record",
    js: true,
    code: src(`
      import http from 'node:http';
      export function waitForCompletion(url) {
        return new Promise((resolve, reject) => {
          http.get(url, (res) => {
            res.on('data', (chunk) => {
              const record = JSON.parse(chunk.toString());
              if (record.status === 'completed') {
                res.destroy();
                resolve(record);
              }
            });
            res.on('error', reject);
          });
        });
      }
    `),
    errors: [at('explicitClose', 8, 11, 24, { stream: 'res', method: 'destroy', event: "record.status === 'completed'" })],
  },
  {
    name: "Node callbacks: the request of http.get destroyed in the response's 'data' handler closes that response",
    js: true,
    code: src(`
      import https from 'node:https';
      export function firstEvent(url) {
        return new Promise((resolve) => {
          const req = https.get(url, (res) => {
            res.on('data', (chunk) => {
              if (chunk.toString().includes('event: done')) {
                req.destroy();
                resolve();
              }
            });
          });
        });
      }
    `),
    errors: [at('explicitClose', 7, 11, 24, { stream: 'req', method: 'destroy', event: "chunk.toString().includes('event: done')" })],
  },
  {
    name: "Node callbacks: axios with responseType 'stream' (res.data is the body)",
    code: src(`
      import axios from 'axios';
      export async function complete(url: string, prompt: string): Promise<string> {
        const res = await axios.post(url, { prompt }, { responseType: 'stream' });
        let text = '';
        return new Promise((resolve) => {
          res.data.on('data', (chunk: Buffer) => {
            const line = chunk.toString();
            if (line.includes('[DONE]')) {
              res.data.destroy();
              resolve(text);
              return;
            }
            text += line;
          });
        });
      }
    `),
    errors: [at('explicitClose', 9, 9, 27, { stream: 'res.data', method: 'destroy', event: "line.includes('[DONE]')" })],
  },
  {
    name: "Node callbacks (compiled): the axios case in an `__awaiter` body (`yield` is the downleveled await)",
    js: true,
    code: src(`
      function complete(url, prompt) {
          return __awaiter(this, void 0, void 0, function* () {
              const res = yield axios_1.default.post(url, { prompt }, { responseType: 'stream' });
              return new Promise((resolve) => {
                  res.data.on('data', (chunk) => {
                      if (chunk.toString().includes('[DONE]')) {
                          res.data.destroy();
                          resolve();
                      }
                  });
              });
          });
      }
    `),
    errors: [at('explicitClose', 7, 21, 39, { stream: 'res.data', method: 'destroy', event: "chunk.toString().includes('[DONE]')" })],
  },
  {
    name: "Node callbacks: an undici request() body destroyed in its 'data' handler",
    js: true,
    code: src(`
      import { request } from 'undici';
      export async function firstResult(url) {
        const { body } = await request(url);
        return new Promise((resolve) => {
          body.on('data', (chunk) => {
            const message = JSON.parse(chunk);
            if (message.type === 'message_stop') {
              body.destroy();
              resolve(message);
            }
          });
        });
      }
    `),
    errors: [at('explicitClose', 8, 9, 23, { stream: 'body', method: 'destroy', event: "message.type === 'message_stop'" })],
  },

  // ------------------------------------------------------------ one site, one report
  {
    name: 'one site: `body.destroy(); return;` in a for await over the same body is reported once, at the destroy',
    js: true,
    code: src(`
      import { request } from 'undici';
      export async function untilDone(url) {
        const { body } = await request(url);
        for await (const chunk of body) {
          if (chunk.toString().includes('[DONE]')) {
            body.destroy();
            return;
          }
        }
      }
    `),
    errors: [at('explicitClose', 6, 7, 21, { stream: 'body', method: 'destroy', event: "chunk.toString().includes('[DONE]')" })],
  },
  {
    name: 'one site (compiled): `response.body.cancel(); return yield __await(void 0);` in a downleveled loop',
    js: true,
    code: src(`
      function events(response) {
          return __asyncGenerator(this, arguments, function* events_1() {
              var _a, e_1, _b, _c;
              try {
                  for (var _d = true, _e = __asyncValues(response.body), _f; _f = yield __await(_e.next()), _a = _f.done, !_a; _d = true) {
                      _c = _f.value;
                      _d = false;
                      if (new TextDecoder().decode(_c).includes('[DONE]')) {
                          response.body.cancel();
                          return yield __await(void 0);
                      }
                  }
              }
              catch (e_1_1) { e_1 = { error: e_1_1 }; }
              finally {
                  try {
                      if (!_d && !_a && (_b = _e.return)) yield __await(_b.call(_e));
                  }
                  finally { if (e_1) throw e_1.error; }
              }
          });
      }
    `),
    errors: [at('explicitClose', 9, 21, 43, { stream: 'response.body', method: 'cancel', event: "new TextDecoder().decode(_c).includes('[DONE]')" })],
  },
  {
    name: 'one site: a return after a close of another stream is still its own site',
    code: src(`
      async function relay(url: string, upstream: ReadableStreamDefaultReader) {
        const response = await fetch(url);
        for await (const chunk of response.body!) {
          if (new TextDecoder().decode(chunk).includes('[DONE]')) {
            upstream.cancel();
            return;
          }
        }
      }
    `),
    errors: [
      at('explicitClose', 5, 7, 24, { stream: 'upstream', method: 'cancel', event: "new TextDecoder().decode(chunk).includes('[DONE…" }),
      at('implicitClose', 6, 7, 14, { statement: 'return', stream: 'response.body!', event: "new TextDecoder().decode(chunk).includes('[DONE…" }),
    ],
  },

  // ------------------------------------------------------------ which test the message names
  {
    name: 'message: the test that recognised the event is quoted, not its guard',
    js: true,
    code: src(`
      async function* lines(response, streamTerminator) {
        for await (const line of iterLines(response)) {
          if (streamTerminator && line.includes(streamTerminator)) return;
          yield line;
        }
      }
    `),
    errors: [at('implicitClose', 3, 62, 69, { statement: 'return', stream: 'iterLines(response)', event: 'line.includes(streamTerminator)' })],
  },
];

export const sdkShapeValid: ValidCase[] = [
  {
    name: 'Fern: a `stream` field iterated without decoding its chunks is not taken for a body by its name',
    js: true,
    code: src(`
      class Jobs {
        constructor({ stream }) {
          this.stream = stream;
        }
        async *run() {
          for await (const job of this.stream) {
            if (job.status === 'completed') return;
            yield job;
          }
        }
      }
    `),
  },
  {
    name: 'body names: a local `stream` read from a file is the file stream, even when its chunks are decoded',
    js: true,
    code: src(`
      import fs from 'node:fs';
      export async function header(path) {
        const stream = fs.createReadStream(path);
        const decoder = new TextDecoder();
        let text = '';
        for await (const chunk of stream) {
          text += decoder.decode(chunk);
          if (text.includes('END')) break;
        }
        return text;
      }
    `),
  },
  {
    name: 'body names: a `stream` field the class opens from a file is not a body',
    js: true,
    code: src(`
      import fs from 'node:fs';
      class Tail {
        constructor(path) {
          this.stream = fs.createReadStream(path);
        }
        async *lines() {
          const decoder = new TextDecoder();
          for await (const chunk of this.stream) {
            const line = decoder.decode(chunk);
            if (line === 'done') return;
            yield line;
          }
        }
      }
    `),
  },
  {
    name: 'Fern: a dispatcher that also returns null for an empty event does not make `== null` a terminal test',
    js: true,
    code: src(`
      class Stream {
        dispatch(data) {
          if (!data) return null;
          if (data.includes(this.terminator)) return null;
          return JSON.parse(data);
        }
        async *events(body) {
          const decoder = new TextDecoder();
          for await (const chunk of body) {
            const event = this.dispatch(decoder.decode(chunk));
            if (event == null) return;
            yield event;
          }
        }
      }
    `),
  },
  {
    name: 'null comparisons are neutral: `finishReason != null` alone is no terminal event',
    js: true,
    code: src(`
      async function* chunks(response) {
        for await (const chunk of iterSSE(response)) {
          if (chunk.choices[0].finish_reason != null) break;
          yield chunk;
        }
      }
    `),
  },
  {
    name: 'null comparisons: an error compared with null stays exempt',
    js: true,
    code: src(`
      async function* events(response) {
        let sawDone = false;
        for await (const event of iterSSE(response)) {
          if (event.data === '[DONE]') sawDone = true;
          if (event.error != null) break;
          if (!sawDone) yield event;
        }
      }
    `),
  },
  {
    name: 'disjunction: every alternative exempt (error or abort) stays exempt after a terminal event',
    js: true,
    code: src(`
      async function consume(response, signal) {
        let sawStop = false;
        for await (const event of iterSSE(response)) {
          if (event.type === 'message_stop') sawStop = true;
          if (event.type === 'error' || signal.aborted) break;
        }
        return sawStop;
      }
    `),
  },
  {
    name: "Node callbacks: a destroy in the 'end' handler is after EOF",
    js: true,
    code: src(`
      import http from 'node:http';
      http.get('http://127.0.0.1/', (res) => {
        let last;
        res.on('data', (chunk) => { last = JSON.parse(chunk); });
        res.on('end', () => { if (last.status === 'completed') res.destroy(); });
      });
    `),
  },
  {
    name: "Node callbacks: the request destroyed on its 'timeout' event is exempt",
    js: true,
    code: src(`
      import http from 'node:http';
      export function poll(url) {
        const req = http.get(url, (res) => {
          res.on('data', (chunk) => {
            if (chunk.toString().includes('[DONE]')) req.setTimeout(1000);
          });
        });
        req.on('timeout', () => req.destroy());
      }
    `),
  },
  {
    name: "Node callbacks: axios without responseType 'stream' gives parsed data, not a body",
    js: true,
    code: src(`
      import axios from 'axios';
      export async function poll(url) {
        const res = await axios.get(url);
        if (res.data.status === 'completed') res.data.destroy();
      }
    `),
  },
  {
    name: 'budgeted drain: a close after the terminal event only when Date.now() - started passes the budget',
    js: true,
    code: src(`
      async function firstMessage(url) {
        const res = await fetch(url);
        const reader = res.body.getReader();
        let message;
        let started;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (message) {
            if (Date.now() - started > 2000) { await reader.cancel(); break; }
            continue;
          }
          if (value.type === 'message_stop') { message = value; started = Date.now(); }
        }
        return message;
      }
    `),
  },
  {
    name: 'budgeted drain (compiled): the same budget test in an `__awaiter` body, after a downleveled for-await',
    js: true,
    code: src(`
      function firstMessage(response) {
          var _a, e_1, _b, _c;
          return __awaiter(this, void 0, void 0, function* () {
              let message;
              const started = Date.now();
              try {
                  for (var _d = true, _e = __asyncValues(iterSSE(response)), _f; _f = yield _e.next(), _a = _f.done, !_a; _d = true) {
                      _c = _f.value;
                      _d = false;
                      if (message && Date.now() - started > 2000)
                          break;
                      if (_c.type === 'message_stop')
                          message = _c;
                  }
              }
              catch (e_1_1) { e_1 = { error: e_1_1 }; }
              finally {
                  try {
                      if (!_d && !_a && (_b = _e.return)) yield _b.call(_e);
                  }
                  finally { if (e_1) throw e_1.error; }
              }
              return message;
          });
      }
    `),
  },
  {
    name: 'budgeted drain: performance.now() read into a variable and compared with a deadline',
    code: src(`
      async function result(response: Response): Promise<unknown> {
        const reader = response.body!.getReader();
        let reply: unknown;
        let until = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return reply;
          if (isJSONRPCResponse(value)) { reply = value; until = performance.now() + 1000; continue; }
          const now = performance.now();
          if (reply !== undefined && now > until) {
            await reader.cancel();
            return reply;
          }
        }
      }
    `),
  },
];
