/**
 * Test cases of `drainguard/no-early-stream-close`, grouped by the section of docs/rules/no-early-stream-close.md they cover.
 *
 * Every expected location is written from the code and the docs: an explicit close is reported on
 * the close CallExpression, an implicit one on the `break`/`return` statement. `locations.test.ts`
 * checks that each expected range really spans such a node, independently of the rule.
 */
import type { RuleOptions } from '../../rules/contract/rule-options.js';

export type MessageId = 'explicitClose' | 'implicitClose' | 'helperClose';

export interface ExpectedError {
  messageId: MessageId;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  data?: Record<string, string>;
}

export interface InvalidCase {
  name: string;
  code: string;
  errors: ExpectedError[];
  options?: [Partial<RuleOptions>];
  /** Plain JavaScript: also run through ESLint's own RuleTester (espree). */
  js?: boolean;
  filename?: string;
}

export interface ValidCase {
  name: string;
  code: string;
  options?: [Partial<RuleOptions>];
  js?: boolean;
  filename?: string;
}

/** Strips the common indentation and the first/last blank line of a template literal. */
export function src(text: string): string {
  const lines = text.replace(/^[ \t]*\n/, '').replace(/\n[ \t]*$/, '').split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => /^ */.exec(line)![0].length));
  return lines.map((line) => line.slice(indent)).join('\n');
}

const explicit = (line: number, column: number, endColumn: number, data?: Record<string, string>): ExpectedError => ({
  messageId: 'explicitClose',
  line,
  column,
  endLine: line,
  endColumn,
  ...(data ? { data } : {}),
});
const implicit = (line: number, column: number, endColumn: number, data?: Record<string, string>): ExpectedError => ({
  messageId: 'implicitClose',
  line,
  column,
  endLine: line,
  endColumn,
  ...(data ? { data } : {}),
});

/** A read loop whose completion branch (`value.type === 'message_stop'`) runs `statement` at line 8. */
export function completionBranch(statement: string): string {
  return src(`
    async function consume(url, signal, deadline, limits) {
      const res = await fetch(url, { signal });
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.type === 'message_stop') {
          ${statement}
          return;
        }
        handle(value);
      }
    }
  `);
}

export const invalid: InvalidCase[] = [
  // ---------------------------------------------------------------- sources
  {
    name: 'source: await fetch(), derivation .body, implicit break out of for await',
    code: src(`
      async function stream(url: string) {
        const response = await fetch(url);
        for await (const chunk of response.body!) {
          if (decoder.decode(chunk).includes('[DONE]')) break;
          emit(chunk);
        }
      }
    `),
    errors: [implicit(4, 51, 57, { statement: 'break', stream: 'response.body!', event: "decoder.decode(chunk).includes('[DONE]')" })],
  },
  {
    name: 'source: fetch(...).then(r => ...) callback parameter, close in a read().then(function pump) callback',
    js: true,
    code: src(`
      function consume(url) {
        return fetch(url).then((r) => {
          const reader = r.body.getReader();
          return reader.read().then(function pump({ done, value }) {
            if (done) return;
            if (isComplete(value)) return reader.cancel();
            handle(value);
            return reader.read().then(pump);
          });
        });
      }
    `),
    errors: [explicit(6, 37, 52)],
  },
  {
    name: 'source: undici.request() body, return out of for await over a parser built on it',
    code: src(`
      import undici from 'undici';

      export async function complete(url: string) {
        const { body } = await undici.request(url);
        for await (const line of splitLines(body)) {
          if (line === 'data: [DONE]') return;
          yieldLine(line);
        }
      }
    `),
    errors: [implicit(6, 34, 41)],
  },
  {
    name: "source: request() imported from 'undici', destroy() on the body",
    js: true,
    code: src(`
      import { request } from 'undici';

      export async function first(url) {
        const { body } = await request(url);
        for await (const chunk of body) {
          if (String(chunk).includes('"type":"message_stop"')) body.destroy();
        }
      }
    `),
    errors: [explicit(6, 58, 72)],
  },
  {
    name: 'source: the response of https.get(url, callback), destroyed in a data handler',
    js: true,
    code: src(`
      import https from 'node:https';

      https.get(url, (incoming) => {
        incoming.setEncoding('utf8');
        incoming.on('data', (text) => {
          if (text.includes('event: done')) incoming.destroy();
        });
      });
    `),
    errors: [explicit(6, 39, 57)],
  },
  {
    name: 'source: http.request(options, callback) response piped through a parser (.pipe derivation)',
    js: true,
    code: src(`
      import http from 'node:http';

      const req = http.request(options, (incoming) => {
        const events = incoming.pipe(createSSEParser());
        events.on('data', (event) => {
          if (event.type === 'done') events.destroy();
        });
      });
      req.end();
    `),
    errors: [explicit(6, 32, 48)],
  },
  {
    name: 'source: parameter annotated ReadableStream',
    code: src(`
      async function untilStop(events: ReadableStream<ServerEvent>) {
        for await (const event of events) {
          if (event.type === 'message_stop') break;
        }
      }
    `),
    errors: [implicit(3, 40, 46)],
  },
  {
    name: 'source: parameter annotated ReadableStreamDefaultReader',
    code: src(`
      async function pump(reader: ReadableStreamDefaultReader<string>) {
        while (true) {
          const { done, value } = await reader.read();
          if (done) return;
          if (value.trim() === 'data: [DONE]') {
            await reader.cancel();
            return;
          }
        }
      }
    `),
    errors: [explicit(6, 13, 28)],
  },
  {
    name: 'source: parameter annotated Response, reader from body.getReader()',
    code: src(`
      async function readAll(r: Response): Promise<string[]> {
        const reader = r.body!.getReader();
        const out: string[] = [];
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return out;
          const text = decode(value);
          if (text.endsWith('[DONE]')) {
            await reader.cancel('done');
            return out;
          }
          out.push(text);
        }
      }
    `),
    errors: [explicit(9, 13, 34)],
  },
  {
    name: 'source: parameter annotated IncomingMessage',
    code: src(`
      import type { IncomingMessage } from 'node:http';

      function watch(message: IncomingMessage) {
        message.on('data', (buf: Buffer) => {
          if (buf.toString().includes('"finished":true')) message.destroy();
        });
      }
    `),
    errors: [explicit(5, 53, 70)],
  },
  {
    name: 'source: variable annotated Readable',
    code: src(`
      import type { Readable } from 'node:stream';

      async function lines(open: () => Readable) {
        const source: Readable = open();
        for await (const line of source) {
          if (line === 'END') return;
          console.log(line);
        }
      }
    `),
    errors: [implicit(6, 25, 32)],
  },
  {
    name: 'source: untyped parameter named resp',
    js: true,
    code: src(`
      async function onResponse(resp) {
        for await (const part of resp.body) {
          if (part.event === 'completed') break;
        }
      }
    `),
    errors: [implicit(3, 37, 43)],
  },
  {
    name: 'source: untyped parameter named res, getReader() derivation',
    js: true,
    code: src(`
      export async function relay(res, sink) {
        const reader = res.body.getReader();
        while (true) {
          const { done, value } = await reader.read();
          if (done) break;
          if (sink.write(value) === 'stop') {
            reader.cancel();
            break;
          }
        }
      }
    `),
    errors: [explicit(7, 7, 22)],
  },
  {
    name: 'source: untyped parameter named response, read through an iterator helper',
    js: true,
    code: src(`
      export async function* messages(response) {
        for await (const message of readMessages(response)) {
          if (message.finished) return;
          yield message;
        }
      }
    `),
    errors: [implicit(3, 27, 34)],
  },

  // ------------------------------------------------------------ derivations
  {
    name: 'derivation: pipeThrough() chain',
    code: src(`
      async function text(url: string) {
        const res = await fetch(url);
        const lines = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new LineSplitter());
        for await (const line of lines) {
          if (line === 'data: [DONE]') break;
        }
      }
    `),
    errors: [implicit(5, 34, 40)],
  },
  {
    name: 'derivation: Readable.fromWeb(response.body)',
    code: src(`
      import { Readable } from 'node:stream';

      async function relay(url: string) {
        const upstream = await fetch(url);
        const nodeStream = Readable.fromWeb(upstream.body as any);
        for await (const chunk of nodeStream) {
          if (chunk.toString().includes('[DONE]')) return;
        }
      }
    `),
    errors: [implicit(7, 46, 53)],
  },
  {
    name: "derivation: x[Symbol.asyncIterator]() and its return(); JSON-RPC 'result' in msg",
    js: true,
    code: src(`
      async function firstReply(response) {
        const events = parseSSE(response.body)[Symbol.asyncIterator]();
        for (;;) {
          const { done, value } = await events.next();
          if (done) return undefined;
          if ('result' in value) {
            await events.return();
            return value;
          }
        }
      }
    `),
    errors: [explicit(7, 13, 28)],
  },
  {
    name: 'derivation: class field assigned a reader, closed in another method',
    js: true,
    code: src(`
      class Session {
        constructor(url) {
          this.url = url;
        }
        async open() {
          const r = await fetch(this.url);
          this.source = r.body.getReader();
        }
        async next() {
          const { done, value } = await this.source.read();
          if (done) return null;
          const message = decode(value);
          if (message.kind === 'terminal') {
            await this.source.cancel();
            return null;
          }
          return message;
        }
      }
    `),
    errors: [explicit(14, 13, 33)],
  },
  {
    name: 'derivation: a call that takes the response (iterSSE(response, signal)), in an async generator',
    code: src(`
      export async function* chat(client: Client, body: string) {
        const response = await client.fetch('/chat', { method: 'POST', body });
        for await (const sse of iterSSE(response, client.signal)) {
          if (sse.data === '[DONE]') return;
          yield JSON.parse(sse.data);
        }
      }
    `),
    errors: [implicit(4, 32, 39)],
  },
  {
    name: 'derivation: parseJSON(res.body) result',
    js: true,
    code: src(`
      async function firstObject(url) {
        const res = await fetch(url);
        const objects = parseJSON(res.body);
        for await (const object of objects) {
          if (object.stop_reason) return object;
        }
      }
    `),
    errors: [implicit(5, 29, 43)],
  },
  {
    name: 'derivation: AbortController whose signal went into the request',
    code: src(`
      async function ask(url: string, payload: unknown) {
        const controller = new AbortController();
        const res = await fetch(url, { method: 'POST', body: JSON.stringify(payload), signal: controller.signal });
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (decode(value).includes('event: message_stop')) {
            controller.abort();
            break;
          }
        }
      }
    `),
    errors: [explicit(9, 7, 25)],
  },
  {
    name: 'derivation: AbortController whose signal went into the request through an options variable',
    js: true,
    code: src(`
      async function ask(url) {
        const ac = new AbortController();
        const init = { headers: { accept: 'text/event-stream' }, signal: ac.signal };
        const stream = iterSSE(await fetch(url, init));
        for await (const event of stream) {
          if (event.event === 'end') ac.abort();
        }
      }
    `),
    errors: [explicit(6, 32, 42)],
  },

  // ------------------------------------------------------------ close forms
  {
    name: 'close: aclose() on an iterator built over the response',
    js: true,
    code: src(`
      async function once(response) {
        const events = iterSSE(response);
        for (;;) {
          const { value } = await events.next();
          if (value.event === 'done') {
            await events.aclose();
            return value;
          }
        }
      }
    `),
    errors: [explicit(6, 13, 28)],
  },
  {
    name: 'close: terminate() on the controller of a TransformStream piped from the response',
    code: src(`
      export function untilDone(response: Response) {
        return response.body!.pipeThrough(
          new TransformStream<string, string>({
            transform(chunk, controller) {
              if (chunk === '[DONE]') {
                controller.terminate();
                return;
              }
              controller.enqueue(chunk);
            },
          }),
        );
      }
    `),
    errors: [explicit(6, 11, 33, { stream: 'controller', method: 'terminate', event: "chunk === '[DONE]'" })],
  },
  {
    name: 'close: terminate() on a TransformStream held in a variable, then piped from the response',
    js: true,
    code: src(`
      async function cut(url) {
        const cutter = new TransformStream({
          transform(chunk, controller) {
            if (chunk.includes('[DONE]')) controller.terminate();
            else controller.enqueue(chunk);
          },
        });
        const res = await fetch(url);
        return res.body.pipeThrough(cutter);
      }
    `),
    errors: [explicit(4, 37, 59)],
  },
  {
    name: 'close: cancel() through optional chaining on the body',
    code: src(`
      async function check(url: string) {
        const response = await fetch(url);
        const reader = response.body?.getReader();
        const first = await reader?.read();
        if (first?.value && isTerminator(first.value)) {
          await response.body?.cancel();
        }
      }
    `),
    errors: [explicit(6, 11, 34)],
  },
  {
    name: 'close: implicit return out of nested blocks inside for await',
    js: true,
    code: src(`
      async function find(url) {
        const res = await fetch(url);
        for await (const chunk of res.body) {
          for (const line of lines(chunk)) {
            if (line.startsWith('data:')) {
              const payload = JSON.parse(line.slice(5));
              if (payload.done === true) return payload;
            }
          }
        }
      }
    `),
    errors: [implicit(7, 36, 51)],
  },
  {
    name: 'close: labeled break that leaves the for await from an inner loop',
    js: true,
    code: src(`
      async function scan(url) {
        const res = await fetch(url);
        outer: for await (const chunk of res.body) {
          for (const line of lines(chunk)) {
            if (line === 'data: [DONE]') break outer;
          }
        }
      }
    `),
    errors: [implicit(5, 36, 48)],
  },
  {
    name: 'close: an explicit cancel and the break after it are one site, reported at the cancel',
    js: true,
    code: src(`
      async function both(url) {
        const res = await fetch(url);
        for await (const chunk of res.body) {
          if (chunk.stop) {
            res.body.cancel();
            break;
          }
        }
      }
    `),
    errors: [explicit(5, 7, 24)],
  },

  // ------------------------------------------------------- terminal events
  {
    name: 'terminal: switch (event.type) { case "message_stop": return }',
    code: src(`
      async function run(response: Response) {
        for await (const event of parseEvents(response)) {
          switch (event.type) {
            case 'content_block_delta':
              emit(event);
              break;
            case 'message_stop':
              return;
          }
        }
      }
    `),
    errors: [implicit(8, 9, 16)],
  },
  {
    name: 'terminal: switch case in a read loop closes the reader',
    js: true,
    code: src(`
      async function run(res) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          switch (value.event) {
            case 'ping':
              continue;
            case 'stream.end':
              await reader.cancel();
              return;
          }
        }
      }
    `),
    errors: [explicit(10, 15, 30)],
  },
  {
    name: 'terminal: JSON-RPC isJSONRPCResponse(msg) predicate',
    code: src(`
      async function call(url: string, id: number) {
        const res = await fetch(url, { method: 'POST' });
        for await (const message of readMessages(res.body!)) {
          if (isJSONRPCResponse(message) && message.id === id) return message;
        }
        throw new Error('no reply');
      }
    `),
    errors: [implicit(4, 58, 73)],
  },
  {
    name: 'terminal: JSON-RPC reply checked by shape (id and result)',
    js: true,
    code: src(`
      async function call(res, id) {
        for await (const msg of readMessages(res.body)) {
          if (msg.id === id && msg.result !== undefined) return msg.result;
        }
      }
    `),
    errors: [implicit(3, 52, 70)],
  },
  {
    name: 'terminal: JSON-RPC error reply predicate is a reply, not an error test',
    code: src(`
      async function call(res: Response, id: number) {
        for await (const msg of readMessages(res.body!)) {
          if (isJSONRPCErrorResponse(msg) && msg.id === id) return msg.error;
        }
      }
    `),
    errors: [implicit(3, 55, 72)],
  },
  {
    name: 'terminal: a flag set in the completion branch ends the loop, close after the loop',
    code: src(`
      async function collect(url: string) {
        const reader = (await fetch(url)).body!.getReader();
        let finished = false;
        while (!finished) {
          const { done, value } = await reader.read();
          if (done) break;
          if (decode(value) === 'message_stop') finished = true;
        }
        await reader.cancel();
      }
    `),
    errors: [explicit(9, 9, 24)],
  },
  {
    name: 'terminal: do/while (!complete) flag, close after the loop',
    js: true,
    code: src(`
      async function collect(res) {
        const reader = res.body.getReader();
        let complete = false;
        do {
          const chunk = await reader.read();
          if (chunk.done) break;
          complete = parse(chunk.value).some((event) => event.type === 'message_stop');
        } while (!complete);
        reader.cancel();
      }
    `),
    errors: [explicit(9, 3, 18)],
  },
  {
    name: 'terminal: receivedResponse flag tested after the loop',
    js: true,
    code: src(`
      async function post(url, body) {
        const res = await fetch(url, { method: 'POST', body });
        const reader = res.body.getReader();
        let receivedResponse = false;
        while (!receivedResponse) {
          const { done, value } = await reader.read();
          if (done) break;
          receivedResponse = isReply(value);
        }
        if (receivedResponse) await reader.cancel();
      }
    `),
    errors: [explicit(10, 31, 46)],
  },
  {
    name: 'terminal: conditional expression and logical && close',
    js: true,
    code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        value === '[DONE]' ? reader.cancel() : handle(value);
        value.isComplete && reader.cancel();
      }
    `),
    errors: [explicit(4, 24, 39), explicit(5, 23, 38)],
  },
  {
    name: 'terminal: the close is reached after the completion branch merges back',
    js: true,
    code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        let last = null;
        if (value.type === 'response.completed') last = value;
        await reader.cancel();
        return last;
      }
    `),
    errors: [explicit(6, 9, 24)],
  },

  // ---------------------------------------------- completion then closes elsewhere
  {
    name: 'finally: an unguarded close in finally is reached from the completion branch',
    js: true,
    code: src(`
      async function read(res) {
        const reader = res.body.getReader();
        try {
          while (true) {
            const { done, value } = await reader.read();
            if (done) return;
            if (value.includes('[DONE]')) return;
          }
        } finally {
          reader.cancel();
        }
      }
    `),
    errors: [explicit(10, 5, 20)],
  },
  {
    name: 'callback: close inside a microtask callback written in the completion branch',
    js: true,
    code: src(`
      async function f(res) {
        for await (const event of iterSSE(res)) {
          if (event.event === 'done') {
            queueMicrotask(() => res.body.cancel());
            continue;
          }
        }
      }
    `),
    errors: [explicit(4, 28, 45)],
  },
  {
    name: 'class method: private field reader closed after a stop event',
    code: src(`
      class Stream {
        #reader: ReadableStreamDefaultReader<Uint8Array>;
        constructor(body: ReadableStream<Uint8Array>) {
          this.#reader = body.getReader();
        }
        async pull(): Promise<Uint8Array | undefined> {
          const { done, value } = await this.#reader.read();
          if (done) return undefined;
          if (isStopEvent(value)) {
            await this.#reader.cancel();
            return undefined;
          }
          return value;
        }
      }
    `),
    errors: [explicit(10, 13, 34)],
  },
  {
    name: 'class method: for await over a field typed Response',
    code: src(`
      class Client {
        constructor(private readonly response: Response) {}
        async *events() {
          for await (const chunk of this.response.body!) {
            if (isDone(chunk)) return;
            yield chunk;
          }
        }
      }
    `),
    errors: [implicit(5, 26, 33)],
  },
  {
    name: 'generator: async function* in an object literal method',
    js: true,
    code: src(`
      const api = {
        async *stream(url) {
          const res = await fetch(url);
          for await (const item of ndjson(res.body)) {
            if (item.type === 'end') break;
            yield item;
          }
        },
      };
    `),
    errors: [implicit(5, 32, 38)],
  },
  {
    name: 'arrow function: completion in a .then callback chained on the read',
    js: true,
    code: src(`
      const consume = (res) =>
        res.body
          .getReader()
          .read()
          .then(({ value }) => {
            if (value && value.finish_reason) res.body.cancel();
          });
    `),
    errors: [explicit(6, 41, 58)],
  },
  {
    name: 'TSX file: close in a React effect',
    filename: 'component.tsx',
    code: src(`
      function Chat({ url }: { url: string }) {
        useEffect(() => {
          fetch(url).then(async (res) => {
            const reader = res.body!.getReader();
            const { value } = await reader.read();
            if (value?.includes('[DONE]')) reader.cancel();
          });
        }, [url]);
        return <div />;
      }
    `),
    errors: [explicit(6, 38, 53)],
  },

  // ------------------------------------------------------ exempt words fail to exempt
  {
    name: 'exempt: a neutral test in the completion branch does not exempt the close',
    js: true,
    code: completionBranch('if (value.index > 3) await reader.cancel();'),
    errors: [explicit(8, 34, 49)],
  },
  {
    name: 'exempt: a throw in another branch does not exempt the close',
    js: true,
    code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        if (value.stop) {
          if (value.partial) throw new Error('partial');
          reader.cancel();
        }
      }
    `),
    errors: [explicit(6, 5, 20)],
  },
  {
    name: 'exempt: a timer callback other than setTimeout/abort/error events still counts (data event)',
    js: true,
    code: src(`
      function watch(res) {
        res.on('data', (chunk) => {
          if (chunk.toString().trim() === 'data: [DONE]') {
            res.destroy();
          }
        });
      }
    `),
    errors: [explicit(4, 7, 20)],
  },

  {
    name: 'exempt: a success test on its positive side does not exempt the close',
    js: true,
    code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        if (res.ok && value === '[DONE]') reader.cancel();
      }
    `),
    errors: [explicit(4, 37, 52)],
  },
  {
    name: 'exempt: a length compared with 0 is an emptiness check, not a limit',
    js: true,
    code: src(`
      async function f(res) {
        for await (const chunk of res.body) {
          const lines = split(chunk);
          if (lines.length > 0 && lines[0] === 'data: [DONE]') break;
        }
      }
    `),
    errors: [implicit(4, 58, 64)],
  },
  {
    name: 'terminal: a done field of a destructured read value is a payload field, not EOF',
    js: true,
    code: src(`
      async function chat(res) {
        const reader = res.body.pipeThrough(new NDJSONStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value.done) {
            await reader.cancel();
            break;
          }
          emit(value.message);
        }
      }
    `),
    errors: [explicit(7, 13, 28)],
  },
  {
    name: "terminal: JSON-RPC error reply by shape ('error' in msg with its id)",
    js: true,
    code: src(`
      async function call(res, id) {
        for await (const msg of readMessages(res.body)) {
          if ('error' in msg && msg.id === id) return msg.error;
        }
      }
    `),
    errors: [implicit(3, 42, 59)],
  },
  {
    name: 'terminal: a completion flag set in a switch case ends the loop, close after it',
    js: true,
    code: src(`
      async function f(res) {
        let completed = false;
        const reader = res.body.getReader();
        while (!completed) {
          const { done, value } = await reader.read();
          if (done) break;
          switch (value.kind) {
            case 'summary':
              completed = true;
              break;
            default:
              emit(value);
          }
        }
        await reader.cancel();
      }
    `),
    errors: [explicit(15, 9, 24)],
  },

  // ------------------------------------------------------------- downleveled
  {
    name: 'downleveled: TypeScript ES2017 __asyncValues loop with break',
    js: true,
    code: src(`
      "use strict";
      var __asyncValues = (this && this.__asyncValues) || function (o) {
          if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
          var m = o[Symbol.asyncIterator], i;
          return m ? m.call(o) : (o = typeof __values === "function" ? __values(o) : o[Symbol.iterator](), i = {}, verb("next"), verb("throw"), verb("return"), i[Symbol.asyncIterator] = function () { return this; }, i);
          function verb(n) { i[n] = o[n] && function (v) { return new Promise(function (resolve, reject) { v = o[n](v), settle(resolve, reject, v.done, v.value); }); }; }
          function settle(resolve, reject, d, v) { Promise.resolve(v).then(function(v) { resolve({ value: v, done: d }); }, reject); }
      };
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.readUntilDone = readUntilDone;
      async function readUntilDone(url) {
          var _a, e_1, _b, _c;
          const response = await fetch(url);
          try {
              for (var _d = true, _e = __asyncValues(response.body), _f; _f = await _e.next(), _a = _f.done, !_a; _d = true) {
                  _c = _f.value;
                  _d = false;
                  const chunk = _c;
                  const text = new TextDecoder().decode(chunk);
                  if (text.includes('[DONE]'))
                      break;
                  console.log(text);
              }
          }
          catch (e_1_1) { e_1 = { error: e_1_1 }; }
          finally {
              try {
                  if (!_d && !_a && (_b = _e.return)) await _b.call(_e);
              }
              finally { if (e_1) throw e_1.error; }
          }
      }
    `),
    errors: [implicit(21, 17, 23, { statement: 'break', stream: 'response.body', event: "text.includes('[DONE]')" })],
  },
  {
    name: 'downleveled: tslib importHelpers form (tslib_1.__asyncValues) with return',
    js: true,
    code: src(`
      "use strict";
      Object.defineProperty(exports, "__esModule", { value: true });
      exports.firstEvent = firstEvent;
      const tslib_1 = require("tslib");
      async function firstEvent(response) {
          var _a, e_1, _b, _c;
          try {
              for (var _d = true, _e = tslib_1.__asyncValues(iterSSE(response)), _f; _f = await _e.next(), _a = _f.done, !_a; _d = true) {
                  _c = _f.value;
                  _d = false;
                  const event = _c;
                  if (event.event === 'message_stop')
                      return event;
              }
          }
          catch (e_1_1) { e_1 = { error: e_1_1 }; }
          finally {
              try {
                  if (!_d && !_a && (_b = _e.return)) await _b.call(_e);
              }
              finally { if (e_1) throw e_1.error; }
          }
      }
    `),
    errors: [implicit(13, 17, 30)],
  },
  {
    name: 'downleveled: older TypeScript form (stream_1_1.done) inside __awaiter generator',
    js: true,
    code: src(`
      function read(response) {
          var e_1, _a;
          return __awaiter(this, void 0, void 0, function* () {
              try {
                  for (var stream_1 = __asyncValues(response), stream_1_1; stream_1_1 = yield stream_1.next(), !stream_1_1.done;) {
                      const event = stream_1_1.value;
                      if (event.type === 'done')
                          break;
                  }
              }
              catch (e_1_1) { e_1 = { error: e_1_1 }; }
              finally {
                  try {
                      if (stream_1_1 && !stream_1_1.done && (_a = stream_1.return)) yield _a.call(stream_1);
                  }
                  finally { if (e_1) throw e_1.error; }
              }
          });
      }
    `),
    errors: [implicit(8, 21, 27)],
  },

  // ----------------------------------------------------------------- options
  {
    name: 'options: a custom terminalPatterns entry reports',
    js: true,
    options: [{ terminalPatterns: ['^eos$'] }],
    code: src(`
      async function f(res) {
        for await (const frame of res.body) {
          if (frame.kind === 'eos') break;
        }
      }
    `),
    errors: [implicit(3, 31, 37)],
  },
  {
    name: 'options: closeMethods adds a close name',
    js: true,
    options: [{ closeMethods: ['cancel', 'dispose'] }],
    code: src(`
      async function f(res) {
        const events = iterSSE(res);
        for (;;) {
          const { value } = await events.next();
          if (value.event === 'done') return events.dispose();
        }
      }
    `),
    errors: [explicit(5, 40, 56)],
  },
];

export const valid: ValidCase[] = [
  // ---------------------------------------------------------------- sources
  { name: 'not a source: async iterable of jobs', js: true, code: src(`
      async function f(jobs) {
        for await (const job of jobs) {
          if (job.state === 'done') break;
        }
      }
    `) },
  { name: 'not a source: AsyncIterable annotation', code: src(`
      async function f(items: AsyncIterable<{ done: boolean }>) {
        for await (const item of items) {
          if (item.done) return;
        }
      }
    `) },
  { name: 'not a source: names that only contain "res" (results, resource)', js: true, code: src(`
      async function f(results, resource) {
        for await (const r of results) {
          if (r.finished) break;
        }
        if (resource.complete) resource.cancel();
      }
    `) },
  { name: 'not a source: callback of a non-http get()', js: true, code: src(`
      cache.get(key, (entry) => {
        if (entry.expired === false && entry.complete) entry.destroy();
      });
    `) },
  { name: 'not a source: a local function whose name ends in "fetch" word only (prefetch)', js: true, code: src(`
      async function f(key) {
        const task = prefetch(key);
        for await (const part of task) {
          if (part.done === 'yes') break;
        }
      }
    `) },
  { name: 'not a source: Readable.from() an array', js: true, code: src(`
      import { Readable } from 'node:stream';
      async function f() {
        for await (const line of Readable.from(['a', 'END'])) {
          if (line === 'END') break;
        }
      }
    `) },

  // ------------------------------------------------------------ derivations
  { name: 'tee(): each branch is its own stream, closing a branch is fine', js: true, code: src(`
      async function f(url) {
        const res = await fetch(url);
        const [preview, rest] = res.body.tee();
        const reader = preview.getReader();
        const { value } = await reader.read();
        if (isComplete(value)) await reader.cancel();
        await consume(rest);
      }
    `) },
  { name: 'tee(): breaking out of for await over a branch', js: true, code: src(`
      async function f(res) {
        const [a, b] = res.body.tee();
        for await (const chunk of a) {
          if (chunk.includes('[DONE]')) break;
        }
        return b;
      }
    `) },
  { name: 'AbortController never passed to a request', js: true, code: src(`
      async function f(url) {
        const controller = new AbortController();
        watchdog(controller.signal);
        const res = await fetch(url);
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (decode(value).includes('event: message_stop')) {
            controller.abort();
          }
        }
      }
    `) },
  { name: 'class field that is not a stream', js: true, code: src(`
      class Runner {
        start(task) {
          this.job = scheduler.schedule(task);
        }
        poll() {
          if (this.job.finished) this.job.cancel();
        }
      }
    `) },
  { name: 'TransformStream not piped from a response', js: true, code: src(`
      const upper = new TransformStream({
        transform(chunk, controller) {
          if (chunk === 'END') controller.terminate();
          else controller.enqueue(chunk.toUpperCase());
        },
      });
      const out = new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } }).pipeThrough(upper);
    `) },
  { name: 'Symbol.asyncIterator of a non-stream', js: true, code: src(`
      async function f(queue) {
        const it = queue[Symbol.asyncIterator]();
        const { value } = await it.next();
        if (value.done) await it.return();
      }
    `) },

  // ------------------------------------------------------------ non-stream closes
  { name: 'non-stream cancel(): animation', js: true, code: src(`
      function f(el) {
        const animation = el.animate(frames, 300);
        animation.onfinish = () => {};
        if (animation.playState === 'finished') animation.cancel();
      }
    `) },
  { name: 'non-stream cancel(): job and timer objects', js: true, code: src(`
      async function f(queue) {
        const job = queue.add(task);
        const timer = scheduler.every(1000, tick);
        if (job.completed) job.cancel();
        if (job.done) timer.cancel();
      }
    `) },
  { name: 'non-stream terminate(): a worker', js: true, code: src(`
      worker.onmessage = (msg) => {
        if (msg.data.type === 'done') worker.terminate();
      };
    `) },
  { name: 'non-stream return(): a generator of numbers', js: true, code: src(`
      function f() {
        const numbers = count();
        for (const n of numbers) {
          if (n === 10) break;
        }
        const finished = true;
        if (finished) numbers.return();
      }
    `) },

  // ----------------------------------------------------------------- EOF
  { name: 'EOF: { done } of a read, close after the drained loop', js: true, code: src(`
      async function f(url) {
        const reader = (await fetch(url)).body.getReader();
        let sawStop = false;
        while (true) {
          const { done, value } = await reader.read();
          if (done) break;
          if (decode(value) === 'message_stop') sawStop = true;
        }
        await reader.cancel();
        return sawStop;
      }
    `) },
  { name: 'EOF: r.done of a read result', code: src(`
      async function f(reader: ReadableStreamDefaultReader<string>) {
        let stopped = false;
        for (;;) {
          const r = await reader.read();
          if (r.done) break;
          if (r.value === 'message_stop') stopped = true;
        }
        if (stopped) reader.cancel();
      }
    `) },
  { name: 'EOF: for await that ran out, then a close', js: true, code: src(`
      async function f(url) {
        const res = await fetch(url);
        let last;
        for await (const event of iterSSE(res)) {
          if (event.type === 'message_stop') last = event;
        }
        await res.body.cancel();
        return last;
      }
    `) },
  { name: "EOF: the 'end' event of a Node stream", js: true, code: src(`
      http.get(url, (res) => {
        let sawDone = false;
        res.on('data', (chunk) => {
          if (String(chunk).includes('[DONE]')) sawDone = true;
        });
        res.on('end', () => {
          if (sawDone) res.destroy();
        });
      });
    `) },
  { name: 'EOF: done from a read().then callback', js: true, code: src(`
      function pump(reader) {
        return reader.read().then(({ done, value }) => {
          if (done) {
            if (value === undefined && seenStop) reader.cancel();
            return;
          }
          return pump(reader);
        });
      }
    `) },
  { name: 'EOF: a drain loop after the terminal event, then the close', code: src(`
      async function f(response: Response) {
        const reader = response.body!.getReader();
        const { value } = await reader.read();
        if (value && isTerminal(value)) {
          while (!(await reader.read()).done) {}
          await reader.cancel();
        }
      }
    `) },
  { name: 'EOF: loop condition is the EOF flag of the read (done = d)', js: true, code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        let done = false;
        let sawEnd = false;
        while (!done) {
          const { value, done: d } = await reader.read();
          done = d;
          if (value && value.type === 'end') sawEnd = true;
        }
        if (sawEnd) reader.cancel();
      }
    `) },
  { name: 'EOF: the seed fix (flag and continue) never closes', js: true, code: src(`
      async function* events(res) {
        let sawTerminalEvent = false;
        for await (const chunk of res.body) {
          if (sawTerminalEvent) continue;
          if (chunk.includes('[DONE]')) {
            sawTerminalEvent = true;
            continue;
          }
          yield chunk;
        }
      }
    `) },
  { name: 'EOF: a flag set at EOF ends the loop, close after the loop', js: true, code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        let finished = false;
        while (!finished) {
          const { done, value } = await reader.read();
          if (done) {
            finished = true;
            continue;
          }
          handle(value);
        }
        await reader.cancel();
      }
    `) },

  // ------------------------------------------------------------ exempt paths
  { name: 'exempt: close in a catch block', js: true, code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        while (true) {
          const { done, value } = await reader.read();
          if (done) break;
          try {
            if (value.type === 'message_stop') finalize(value);
          } catch (err) {
            await reader.cancel(err);
            throw err;
          }
        }
      }
    `) },
  { name: 'exempt: close in a catch block of a for await (no rethrow)', js: true, code: src(`
      async function f(res) {
        try {
          for await (const event of iterSSE(res)) {
            if (event.type === 'done') onDone(event);
          }
        } catch {
          res.body.cancel();
        }
      }
    `) },
  { name: 'exempt: branch that ends in throw', js: true, code: completionBranch("if (!sawStart) { await reader.cancel(); throw new Error('stop before start'); }") },
  { name: 'exempt: error test', js: true, code: completionBranch('if (value.error) await reader.cancel();') },
  { name: 'exempt: abort test (signal.aborted)', js: true, code: completionBranch('if (signal.aborted) await reader.cancel();') },
  { name: 'exempt: cancel test', js: true, code: completionBranch('if (value.cancelled) await reader.cancel();') },
  { name: 'exempt: timeout test', js: true, code: completionBranch('if (Date.now() - value.at > timeoutMs) await reader.cancel();') },
  { name: 'exempt: deadline test', js: true, code: completionBranch('if (Date.now() > deadline) await reader.cancel();') },
  { name: 'exempt: size limit test', js: true, code: completionBranch('if (value.bytes > limits.maxSize) await reader.cancel();') },
  { name: 'exempt: count limit test', js: true, code: completionBranch('if (++value.count > 10) await reader.cancel();') },
  { name: 'exempt: HTTP status test', js: true, code: completionBranch('if (res.status !== 200) await reader.cancel();') },
  { name: 'exempt: terminal word combined with an error word', js: true, code: src(`
      async function f(res) {
        for await (const event of iterSSE(res)) {
          if (event.type === 'done' && event.error) break;
        }
      }
    `) },
  { name: "exempt: signal.addEventListener('abort', ...) callback", js: true, code: completionBranch("signal.addEventListener('abort', () => reader.cancel());") },
  { name: 'exempt: onabort handler', js: true, code: completionBranch('signal.onabort = () => reader.cancel();') },
  { name: 'exempt: setTimeout callback (the bounded drain budget)', js: true, code: completionBranch('setTimeout(() => reader.cancel(), 1000);') },
  { name: "exempt: .on('error') / .on('close') / .on('timeout') callbacks", js: true, code: src(`
      http.get(url, (res) => {
        res.on('data', (chunk) => {
          if (String(chunk).includes('[DONE]')) {
            res.on('error', () => res.destroy());
            res.on('close', () => res.destroy());
            res.on('timeout', () => res.destroy());
          }
        });
      });
    `) },
  { name: 'exempt: finally close guarded by a not-finished flag', js: true, code: src(`
      async function f(url) {
        const controller = new AbortController();
        let done = false;
        try {
          const res = await fetch(url, { signal: controller.signal });
          const reader = res.body.getReader();
          for (;;) {
            const chunk = await reader.read();
            if (chunk.done) {
              done = true;
              return undefined;
            }
            if (isStop(chunk.value)) return chunk.value;
          }
        } finally {
          if (!done) controller.abort();
        }
      }
    `) },
  { name: 'exempt: cancel() member of an underlying source', js: true, code: src(`
      function wrap(response) {
        const reader = response.body.getReader();
        let completed = false;
        return new ReadableStream({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) return controller.close();
            controller.enqueue(value);
          },
          async cancel(reason) {
            if (completed) log('cancel after completion');
            await reader.cancel(reason);
          },
        });
      }
    `) },
  { name: 'exempt: return() and throw() members of an iterator', code: src(`
      function iterate(response: Response) {
        const reader = response.body!.getReader();
        let finished = false;
        return {
          [Symbol.asyncIterator]() {
            return this;
          },
          async next() {
            return reader.read();
          },
          async return() {
            if (finished) log('already finished');
            await reader.cancel();
            return { done: true as const, value: undefined };
          },
          async throw(error: unknown) {
            if (finished) log('already finished');
            await reader.cancel(error);
            throw error;
          },
        };
      }
    `) },
  { name: 'exempt: EventSource#close()', js: true, code: src(`
      const source = new EventSource(url);
      source.onmessage = (event) => {
        if (event.data === '[DONE]') source.close();
      };
    `) },
  { name: 'exempt: promise rejection handlers (.catch, second then argument)', js: true, code: src(`
      function f(res) {
        const reader = res.body.getReader();
        return reader.read().then(({ value }) => {
          if (value.finished) {
            return later().then(null, () => reader.cancel()).catch(() => reader.cancel());
          }
        });
      }
    `) },

  { name: 'exempt: a failed success test (!res.ok)', js: true, code: completionBranch('if (!res.ok) await reader.cancel();') },
  { name: 'exempt: the else branch of a success test', js: true, code: completionBranch('if (res.ok) finish(value); else await reader.cancel();') },
  { name: "exempt: 'error' in msg without an id is an error test", js: true, code: src(`
      async function f(res) {
        for await (const msg of readMessages(res.body)) {
          if (msg.type === 'done' && 'error' in msg) return;
        }
      }
    `) },
  { name: 'exempt: EventSource#close() even when close is a configured close method', js: true, options: [{ closeMethods: ['cancel', 'close'] }], code: src(`
      const source = new EventSource(response.url);
      source.addEventListener('message', (event) => {
        if (event.data === '[DONE]') source.close();
      });
    `) },

  // ------------------------------------------------------------ control structure
  { name: 'break from an inner loop does not leave the for await', js: true, code: src(`
      async function f(res) {
        for await (const chunk of res.body) {
          for (const line of lines(chunk)) {
            if (line === 'data: [DONE]') break;
          }
        }
      }
    `) },
  { name: 'break out of a switch inside for await', code: src(`
      async function f(response: Response) {
        for await (const event of parseEvents(response)) {
          switch (event.type) {
            case 'message_stop':
              onStop(event);
              break;
            default:
              emit(event);
          }
        }
      }
    `) },
  { name: 'continue (labeled and plain) does not leave the for await', js: true, code: src(`
      async function f(res) {
        outer: for await (const chunk of res.body) {
          if (chunk === '[DONE]') continue;
          for (const line of lines(chunk)) {
            if (line.endsWith('stop')) continue outer;
          }
        }
      }
    `) },
  { name: 'return in a nested function inside for await', js: true, code: src(`
      async function f(res) {
        for await (const chunk of res.body) {
          chunk.events.forEach((event) => {
            if (event.done) return;
            emit(event);
          });
        }
      }
    `) },
  { name: 'break out of a labeled block inside for await', js: true, code: src(`
      async function f(res) {
        for await (const chunk of res.body) {
          parse: {
            if (chunk.type === 'message_stop') break parse;
            emit(chunk);
          }
        }
      }
    `) },
  { name: 'break before any terminal event', js: true, code: src(`
      async function f(res) {
        for await (const chunk of res.body) {
          if (chunk.length > max) break;
          emit(chunk);
        }
      }
    `) },
  { name: 'closes with no terminal event at all', js: true, code: src(`
      async function f(res, signal) {
        const reader = res.body.getReader();
        signal.addEventListener('abort', () => reader.cancel());
        await reader.cancel();
      }
    `) },
  { name: 'a function declaration does not inherit the completion state', js: true, code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        if (value.type === 'message_stop') {
          function stop() {
            return reader.cancel();
          }
          register(stop);
        }
      }
    `) },
  { name: 'the close is on the other side of the completion test', js: true, code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        if (value.type === 'message_stop') finish(value);
        else if (value.type === 'ping') reader.cancel();
      }
    `) },
  { name: 'a completion word that is the EOF done of the read', js: true, code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        for (;;) {
          const result = await reader.read();
          if (result.done) {
            await reader.cancel();
            return;
          }
        }
      }
    `) },
  { name: 'file without any close name or for await (pre-filter)', js: true, code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        if (value === '[DONE]') reader.releaseLock();
      }
    `) },

  // ----------------------------------------------------------------- options
  { name: 'options: with custom terminalPatterns the defaults no longer apply', js: true, options: [{ terminalPatterns: ['^eos$'] }], code: src(`
      async function f(res) {
        for await (const frame of res.body) {
          if (frame.type === 'message_stop') break;
        }
      }
    `) },
  { name: 'options: closeMethods without cancel no longer reports cancel()', js: true, options: [{ closeMethods: ['abort'] }], code: src(`
      async function f(res) {
        const reader = res.body.getReader();
        const { value } = await reader.read();
        if (value === '[DONE]') reader.cancel();
      }
    `) },
  { name: 'options: closeMethods without return: it.return() is not a close', options: [{ closeMethods: ['cancel'] }], code: src(`
      async function f(response: Response) {
        const it = response.body![Symbol.asyncIterator]();
        const { value } = await it.next();
        if (value.finished) it.return();
      }
    `) },
];

/** Run with type information (`useTypes: true`, project service over test/rules/fixtures/typed). */
export const typedInvalid: InvalidCase[] = [
  {
    name: "Node's IncomingMessage by inference (declared in @types/node)",
    code: src(`
      /// <reference types="node" />
      import type { IncomingMessage } from 'node:http';
      declare function get(url: string): Promise<IncomingMessage>;
      export async function f(url: string) {
        const message = await get(url);
        for await (const chunk of message) {
          if (String(chunk).includes('[DONE]')) break;
        }
      }
    `),
    options: [{ useTypes: true }],
    errors: [implicit(7, 43, 49)],
  },
  {
    name: 'a `res` typed as the platform ReadableStreamDefaultReader is confirmed as a close receiver',
    code: src(`
      export function handler(res: ReadableStreamDefaultReader<string>, event: { type: string }) {
        if (event.type === 'message_stop') res.cancel();
      }
    `),
    options: [{ useTypes: true }],
    errors: [explicit(2, 38, 50)],
  },
  {
    name: 'a variable typed ReadableStream by inference (no annotation, unsuggestive name)',
    code: src(`
      declare function openStream(): ReadableStream<string>;
      export async function f() {
        const s = openStream();
        for await (const chunk of s) {
          if (chunk === '[DONE]') break;
        }
      }
    `),
    options: [{ useTypes: true }],
    errors: [implicit(5, 29, 35)],
  },
  {
    name: 'a reader inferred from a Response-returning helper',
    code: src(`
      declare function open(url: string): Promise<Response>;
      export async function f(url: string) {
        const r = await open(url);
        const reader = r.body!.getReader();
        const { value } = await reader.read();
        if (value && new TextDecoder().decode(value).includes('[DONE]')) await reader.cancel();
      }
    `),
    options: [{ useTypes: true }],
    errors: [explicit(6, 74, 89)],
  },
  {
    name: 'a custom async-iterable wrapper built over the response is confirmed',
    code: src(`
      declare class Stream<T> implements AsyncIterable<T> {
        static fromResponse<T>(response: Response): Stream<T>;
        [Symbol.asyncIterator](): AsyncIterator<T>;
      }
      export async function f(url: string) {
        const response = await fetch(url);
        for await (const event of Stream.fromResponse<{ type: string }>(response)) {
          if (event.type === 'message_stop') return event;
        }
        return undefined;
      }
    `),
    options: [{ useTypes: true }],
    errors: [implicit(8, 40, 53)],
  },
];

export const typedValid: ValidCase[] = [
  {
    name: 'a type named Response that is not the platform\'s (declared in the file, like Express\'s) is no response stream',
    code: src(`
      interface Response { [Symbol.asyncIterator](): AsyncIterator<string> }
      declare function open(): Response;
      export async function f() {
        const s = open();
        for await (const chunk of s) {
          if (chunk === '[DONE]') break;
        }
      }
    `),
    options: [{ useTypes: true }],
  },
  {
    name: 'an Express-style `res` (a Node ServerResponse, written to by a server) is not confirmed as a close receiver',
    code: src(`
      /// <reference types="node" />
      import type { ServerResponse } from 'node:http';
      interface Response extends ServerResponse { send(body: string): this }
      export function handler(res: Response, event: { type: string }) {
        if (event.type === 'message_stop') res.destroy();
      }
    `),
    options: [{ useTypes: true }],
  },
  {
    name: 'a response-named variable whose type is not a stream is not confirmed',
    code: src(`
      interface Job { finished: boolean; cancel(): void }
      declare const res: Job;
      if (res.finished) res.cancel();
    `),
    options: [{ useTypes: true }],
  },
  {
    name: 'an async generator of jobs is not a response stream',
    code: src(`
      interface Job { done: boolean }
      declare function jobs(): AsyncGenerator<Job>;
      export async function f() {
        const queue = jobs();
        for await (const job of queue) {
          if (job.done) break;
        }
      }
    `),
    options: [{ useTypes: true }],
  },
  {
    name: 'an AbortController typed but never passed to a request',
    code: src(`
      export async function f(url: string, watchdog: (signal: AbortSignal) => void) {
        const controller: AbortController = new AbortController();
        watchdog(controller.signal);
        const response = await fetch(url);
        const text = await response.text();
        if (text.endsWith('[DONE]')) controller.abort();
      }
    `),
    options: [{ useTypes: true }],
  },
];
