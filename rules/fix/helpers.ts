import type { DrainBounds } from '../contract/drain-options.js';
import { DRAIN_HAND_OFF_METHOD } from '../javascript/hand-off.js';
import type { Style } from './style.js';

/**
 * The helper functions the rewritten sites call, as small pieces: a run emits only the pieces its sites use (and what
 * those use), once per repository in one helper module, or at the end of the file where no module can be imported.
 * Written in TypeScript, laid out as prettier lays them out at 80 columns with two-space indentation; `«…»` marks
 * what only TypeScript keeps (types), `‹…›` what only JavaScript keeps. {@link renderPieces} lays them out like the
 * repository.
 */
const BOUNDS = `// Past these limits a drain gives up and closes as the code did (0: no limit).
const DRAIN_LIMITS = { timeoutMs: %TIMEOUT%, maxBytes: %MAX_BYTES% };`;

/**
 * The limits of the helper module: exported, so that the test \`drainguard fix\` writes with it can shorten them, and
 * typed, which TypeScript's \`isolatedDeclarations\` asks of an export.
 */
const EXPORTED_BOUNDS = `// Past these limits a drain gives up and closes as the code did (0: no limit).
«export const DRAIN_LIMITS: { timeoutMs: number; maxBytes: number } = {
  timeoutMs: %TIMEOUT%,
  maxBytes: %MAX_BYTES%,
};»‹export const DRAIN_LIMITS = { timeoutMs: %TIMEOUT%, maxBytes: %MAX_BYTES% };›`;

const CHUNK_SIZE = `/** Bytes of a buffer, characters of a string, else a message's JSON length. */
function chunkSize(chunk«: unknown»)«: number» {
  if (typeof chunk === 'string') {
    return chunk.length;
  }
  if (ArrayBuffer.isView(chunk)) {
    return chunk.byteLength;
  }
  return JSON.stringify(chunk ?? null).length;
}`;

const CLOSE_ONCE = `/** A drain's give-up: calls close() once; its errors end there. */
function closeOnce(close«: () => unknown»)«: () => Promise<void>» {
  let closed = false;
  return async () => {
    if (!closed) {
      closed = true;
      try {
        await close();
      } catch {
        // Nothing after the terminal event reaches the caller.
      }
    }
  };
}`;

const DRAIN_CHUNKS = `/** The drain under way: the next one to start gives it up. */
let drainUnderWay«: (() => Promise<void>) | undefined»;

/** Reads to the end; past the limits, or on a read error, calls close(). */
async function drainChunks(
  read«: () => Promise<{ done?: boolean; value?: unknown }>»,
  close«: () => unknown»,
  timeoutMs«: number»,
)«: Promise<void>» {
  const giveUp = closeOnce(close);
  // A body still held when the next stream ends is let go at once: fetch opens
  // a new connection after a close, which only the calls after it can use.
  void drainUnderWay?.();
  drainUnderWay = giveUp;
  const onTimeout = ()«: void» => {
    void giveUp();
  };
  const timer = timeoutMs > 0 ? setTimeout(onTimeout, timeoutMs) : undefined;
  const chunks«: AsyncIterable<unknown>» = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const chunk = await read();
        return { done: chunk.done === true, value: chunk.value };
      },
    }),
  };
  const { maxBytes } = DRAIN_LIMITS;
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      bytes += chunkSize(chunk);
      if (maxBytes > 0 && bytes >= maxBytes) {
        await giveUp();
        return;
      }
    }
  } catch {
    await giveUp();
  } finally {
    clearTimeout(timer);
    if (drainUnderWay === giveUp) {
      drainUnderWay = undefined;
    }
  }
}`;

const DRAIN_READER = `/** Reads a body to its end after the terminal event: its socket is reused. */
%EXPORT%function drainReader«<
  R extends { read: () => Promise<{ done?: boolean; value?: unknown }> },
>»(reader«: R», close«: (reader: R) => unknown»)«: Promise<void>» {
  return drainChunks(
    () => reader.read(),
    () => close(reader),
    DRAIN_LIMITS.timeoutMs,
  );
}`;

const MESSAGES_BUDGET = `/**
 * A drain of parsed messages never sees what the parser drops (comments,
 * keep-alives), so its byte limit cannot stop a flood of them: it gets a
 * tenth of the time budget.
 */
function messagesBudget()«: number» {
  return DRAIN_LIMITS.timeoutMs / 10;
}`;

const DRAIN_ITERATOR = `/** Reads parsed messages to their end, as drainReader() reads a body. */
%EXPORT%function drainIterator«<
  I extends { next: () => Promise<{ done?: boolean; value?: unknown }> },
>»(iterator«: I», close«: (iterator: I) => unknown»)«: Promise<void>» {
  return drainChunks(
    () => iterator.next(),
    () => close(iterator),
    messagesBudget(),
  );
}`;

const DRAIN_BODY_CHUNKS = `/** drainReader() for an iterator of the body's chunks. */
%EXPORT%function drainBodyChunks«<
  I extends { next: () => Promise<{ done?: boolean; value?: unknown }> },
>»(iterator«: I», close«: (iterator: I) => unknown»)«: Promise<void>» {
  return drainChunks(
    () => iterator.next(),
    () => close(iterator),
    DRAIN_LIMITS.timeoutMs,
  );
}`;

const DRAIN_MESSAGES = `/** drainIterator() for a reader of parsed messages. */
%EXPORT%function drainMessages«<
  R extends { read: () => Promise<{ done?: boolean; value?: unknown }> },
>»(reader«: R», close«: (reader: R) => unknown»)«: Promise<void>» {
  return drainChunks(
    () => reader.read(),
    () => close(reader),
    messagesBudget(),
  );
}`;

const DRAINABLE = `«/** What a \`for await\` over S sees (S itself where it is \`any\`). */
%EXPORT%type LoopItem<S> = S extends AsyncIterable<infer T> ? T : S;

/** A \`for await\` source; drainRest reads it from %HAND_OFF%() on. */
%EXPORT%function drainable<S extends AsyncIterable<unknown>>(
  source: S,
  drainRest: (rest: AsyncIterator<LoopItem<S>>) => Promise<void>,
): AsyncIterable<LoopItem<S>> & { %HAND_OFF%: () => void };
»‹/** A \`for await\` source; drainRest reads it from %HAND_OFF%() on. */
›%EXPORT%function drainable«<T>»(
  source«: AsyncIterable<T>»,
  drainRest«: (rest: AsyncIterator<T>) => Promise<void>»,
)«: AsyncIterable<T> & { %HAND_OFF%: () => void }» {
  const iterator = source[Symbol.asyncIterator]();
  const finished«: IteratorReturnResult<undefined>» = {
    done: true,
    value: undefined,
  };
  let handedOff = false;
  const loop«: AsyncIterator<T>» = {
    next: () => (handedOff ? Promise.resolve(finished) : iterator.next()),
    return: async () => {
      if (!handedOff) {
        await iterator.return?.();
      }
      return finished;
    },
  };
  return {
    [Symbol.asyncIterator]: () => loop,
    %HAND_OFF%: () => {
      if (!handedOff) {
        handedOff = true;
        void drainRest(iterator);
      }
    },
  };
}`;

const DRAINABLE_BODY = `/** drainable() for a loop over a body: a web one is tapped, else read on. */
%EXPORT%function drainableBody«<T>»(
  body«: AsyncIterable<T> & { destroy?: () => unknown }»,
)«: AsyncIterable<T> & { %HAND_OFF%: () => void }» {
  if (isWebStream(body)) {
    const tapped = tapBody(body);
    return drainable(readChunks(tapped.body), tapped.drain);
  }
  return drainable(body, (rest) => drainNodeBody(body, rest));
}`;

const DRAIN_NODE_BODY = `/** Reads a Node stream's chunks to the end; past the limits, destroys it. */
function drainNodeBody(
  body«: { destroy?: () => unknown }»,
  chunks«: AsyncIterator<unknown>»,
)«: Promise<void>» {
  return drainChunks(
    () => chunks.next(),
    () => (body.destroy ? body.destroy() : chunks.return?.()),
    DRAIN_LIMITS.timeoutMs,
  );
}`;

const DRAIN_OTHER_BODY = `/** A body that is no web stream (a custom fetch's Node stream), read on. */
function drainOtherBody(body«: unknown»)«: Promise<void>» {
  if (!isAsyncIterable(body)) {
    return Promise.resolve();
  }
  return drainNodeBody(body, body[Symbol.asyncIterator]());
}`;

const IS_ASYNC_ITERABLE = `/** What a \`for await\` can read: a Node stream, say. */
function isAsyncIterable(
  value«: unknown»,
)«: value is AsyncIterable<unknown> & { destroy?: () => unknown }» {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}`;

const READ_CHUNKS = `/** A web stream's chunks for \`for await\`, through its reader. */
function readChunks«<T>»(stream«: ReadableStream<T>»)«: AsyncIterable<T>» {
  const reader = stream.getReader();
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const chunk = await reader.read();
        return chunk.done ? { done: true, value: undefined } : chunk;
      },
      return: async () => {
        await reader.cancel();
        return { done: true, value: undefined };
      },
    }),
  };
}`;

const IS_WEB_STREAM = `/** A web stream: its reader's cancel(), not return(), ends a pending read. */
function isWebStream«<T>»(
  body«: AsyncIterable<T>»,
)«: body is AsyncIterable<T> & ReadableStream<T>» {
  return 'getReader' in body && typeof body.getReader === 'function';
}`;

const TAP_BODY = `/** A parser's stream fed from the body; drain() reads the rest as bytes. */
%EXPORT%function tapBody«<T>»(body«: ReadableStream<T>»)«: {
  body: ReadableStream<T>;
  drain: () => Promise<void>;
}» {
  if (!hasReader(body)) {
    // A custom fetch's Node stream: the parser reads it as before.
    return { body, drain: () => drainOtherBody(body) };
  }
  const reader = body.getReader();
  const stream = new ReadableStream«<T>»(
    {
      pull: async (controller) => {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            reader.releaseLock();
            controller.close();
          } else {
            controller.enqueue(chunk.value);
          }
        } catch (error) {
          reader.releaseLock();
          throw error;
        }
      },
      cancel: async (reason) => {
        await reader.cancel(reason);
        reader.releaseLock();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    body: stream,
    drain: async () => {
      await drainReader(reader, (held) => held.cancel());
      reader.releaseLock();
    },
  };
}`;

const HAS_READER = `/** A web stream, whatever its declared type says. */
function hasReader(body«: unknown»)«: boolean» {
  return typeof body === 'object' && body !== null && 'getReader' in body;
}`;

const TAP_RESPONSE = `/** tapBody() for a parser given a Response: same status and headers. */
%EXPORT%function tapResponse(response«: Response»)«: {
  response: Response;
  drain: () => Promise<void>;
}» {
  if (!response.body) {
    return { response, drain: () => Promise.resolve() };
  }
  const tapped = tapBody(response.body);
  if (tapped.body === response.body) {
    return { response, drain: tapped.drain };
  }
  return { response: new Response(tapped.body, response), drain: tapped.drain };
}`;

const DRAIN_NODE_STREAM = `/** In a 'data' handler at the terminal event: reads the rest, unseen. */
%EXPORT%function drainNodeStream«<S extends import('node:stream').Readable>»(
  stream«: S»,
  close«: (stream: S) => unknown»,
)«: void» {
  for (const event of ['data', 'end', 'error']) {
    for (const listener of stream.listeners(event)) {
      // Node's http client gives the socket back to its agent on 'end'.
      if (isListener(listener) && listener.name !== 'responseOnEnd') {
        stream.removeListener(event, listener);
      }
    }
  }
  const giveUp = closeOnce(() => close(stream));
  const { timeoutMs, maxBytes } = DRAIN_LIMITS;
  const onTimeout = ()«: void» => {
    void giveUp();
  };
  const timer = timeoutMs > 0 ? setTimeout(onTimeout, timeoutMs) : undefined;
  const stop = ()«: void» => {
    clearTimeout(timer);
  };
  let bytes = 0;
  stream.on('data', (chunk«: { length: number }») => {
    bytes += chunk.length;
    if (maxBytes > 0 && bytes >= maxBytes) {
      stop();
      void giveUp();
    }
  });
  stream.on('error', stop);
  stream.on('end', stop);
  stream.on('close', stop);
  stream.resume();
}`;

const IS_LISTENER = `/** A listener as Node's emitter lists it (typed \`Function\` there). */
function isListener(value«: unknown»)«: value is (...args: unknown[]) => unknown» {
  return typeof value === 'function';
}`;

export type PieceName =
  | 'bounds'
  | 'chunkSize'
  | 'closeOnce'
  | 'drainChunks'
  | 'drainReader'
  | 'drainIterator'
  | 'messagesBudget'
  | 'drainMessages'
  | 'drainBodyChunks'
  | 'drainNodeBody'
  | 'drainOtherBody'
  | 'isAsyncIterable'
  | 'hasReader'
  | 'drainable'
  | 'drainableBody'
  | 'isWebStream'
  | 'readChunks'
  | 'tapBody'
  | 'tapResponse'
  | 'isListener'
  | 'drainNodeStream';

interface Piece {
  template: string;
  /** Pieces this one calls. */
  uses: PieceName[];
  /** Identifiers the piece declares at the top level of its module. */
  declares: string[];
}

/** In dependency order: a piece comes after every piece it uses, so the module reads from the bounds down. */
const PIECES: Record<PieceName, Piece> = {
  bounds: { template: BOUNDS, uses: [], declares: ['DRAIN_LIMITS'] },
  chunkSize: { template: CHUNK_SIZE, uses: [], declares: ['chunkSize'] },
  closeOnce: { template: CLOSE_ONCE, uses: [], declares: ['closeOnce'] },
  drainChunks: { template: DRAIN_CHUNKS, uses: ['bounds', 'chunkSize', 'closeOnce'], declares: ['drainChunks', 'drainUnderWay'] },
  drainReader: { template: DRAIN_READER, uses: ['drainChunks'], declares: ['drainReader'] },
  messagesBudget: { template: MESSAGES_BUDGET, uses: ['bounds'], declares: ['messagesBudget'] },
  drainIterator: { template: DRAIN_ITERATOR, uses: ['drainChunks', 'messagesBudget'], declares: ['drainIterator'] },
  drainBodyChunks: { template: DRAIN_BODY_CHUNKS, uses: ['drainChunks'], declares: ['drainBodyChunks'] },
  drainMessages: { template: DRAIN_MESSAGES, uses: ['drainChunks', 'messagesBudget'], declares: ['drainMessages'] },
  drainable: { template: DRAINABLE, uses: [], declares: ['drainable'] },
  drainNodeBody: { template: DRAIN_NODE_BODY, uses: ['drainChunks'], declares: ['drainNodeBody'] },
  isAsyncIterable: { template: IS_ASYNC_ITERABLE, uses: [], declares: ['isAsyncIterable'] },
  drainOtherBody: { template: DRAIN_OTHER_BODY, uses: ['drainNodeBody', 'isAsyncIterable'], declares: ['drainOtherBody'] },
  hasReader: { template: HAS_READER, uses: [], declares: ['hasReader'] },
  tapBody: { template: TAP_BODY, uses: ['drainReader', 'hasReader', 'drainOtherBody'], declares: ['tapBody'] },
  tapResponse: { template: TAP_RESPONSE, uses: ['tapBody'], declares: ['tapResponse'] },
  isWebStream: { template: IS_WEB_STREAM, uses: [], declares: ['isWebStream'] },
  readChunks: { template: READ_CHUNKS, uses: [], declares: ['readChunks'] },
  drainableBody: { template: DRAINABLE_BODY, uses: ['drainable', 'drainNodeBody', 'tapBody', 'isWebStream', 'readChunks'], declares: ['drainableBody'] },
  isListener: { template: IS_LISTENER, uses: [], declares: ['isListener'] },
  drainNodeStream: { template: DRAIN_NODE_STREAM, uses: ['bounds', 'closeOnce', 'isListener'], declares: ['drainNodeStream'] },
};

export function isPieceName(name: string): name is PieceName {
  return Object.hasOwn(PIECES, name);
}

const ORDER = Object.keys(PIECES).filter(isPieceName);

/** The method of drainable()'s result that hands the rest of the stream to the drain (the rule treats it as EOF). */
export const HAND_OFF_METHOD = DRAIN_HAND_OFF_METHOD;

/** Every identifier the pieces declare (the helper module's names and the names a file's own copy takes). */
export const HELPER_IDENTIFIERS: readonly string[] = [...ORDER.flatMap((name) => PIECES[name].declares), 'LoopItem'];

/** The pieces whose declarations `text` holds at its top level (a helper module or a file's own copy, with `suffix`). */
export function piecesIn(declared: ReadonlySet<string>, suffix = ''): PieceName[] {
  // By its first name: a piece an earlier version wrote stays as it is (its other names may differ).
  return ORDER.filter((name) => declared.has(`${PIECES[name].declares[0]}${suffix}`));
}

/** `wanted` and every piece they use, in module order. */
export function withDependencies(wanted: Iterable<PieceName>): PieceName[] {
  const all = new Set<PieceName>();
  const add = (name: PieceName): void => {
    if (all.has(name)) return;
    all.add(name);
    for (const used of PIECES[name].uses) add(used);
  };
  for (const name of wanted) add(name);
  return ORDER.filter((name) => all.has(name));
}

export interface RenderOptions {
  style: Style;
  bounds: DrainBounds;
  /** `export function` (the helper module) or plain `function` (a file's own copy). */
  exported: boolean;
  /** Identifier renames for a file's own copy (`drainReader` -> `drainReader2` where the file uses the name already). */
  rename?: ReadonlyMap<string, string>;
}

/** The pieces' text, in module order, laid out in the style (indentation, quotes, semicolons, line ending). */
export function renderPieces(names: readonly PieceName[], options: RenderOptions): string {
  const { style } = options;
  return names.map((name) => renderPiece(PIECES[name], options)).join(`${style.eol}${style.eol}`);
}

function renderPiece(piece: Piece, { style, bounds, exported, rename }: RenderOptions): string {
  const template = exported && piece.template === BOUNDS ? EXPORTED_BOUNDS : piece.template;
  const text = template
    .replaceAll('%TIMEOUT%', String(bounds.drainTimeoutMs))
    .replaceAll('%MAX_BYTES%', bytesText(bounds.drainMaxBytes))
    .replaceAll('%HAND_OFF%', HAND_OFF_METHOD)
    .replaceAll('%EXPORT%', exported ? 'export ' : '');
  return layOut(text, style, rename);
}

/**
 * A template in the repository's style: its TypeScript (`«…»` kept, `‹…›` dropped) or its JavaScript (types dropped),
 * identifiers renamed, quotes, indentation (written with two spaces), semicolons and line endings as the style says.
 */
export function layOut(template: string, style: Style, rename?: ReadonlyMap<string, string>): string {
  let text = style.typescript ? template.replace(/‹[^›]*›/g, '').replace(/[«»]/g, '') : stripTypes(template.replace(/[‹›]/g, ''));
  if (rename && rename.size > 0) {
    const pattern = new RegExp(`(?<![\\w$.])(${[...rename.keys()].join('|')})\\b`, 'g');
    text = text.replace(pattern, (name: string) => rename.get(name) ?? name);
  }
  if (style.quote === '"') text = text.replace(/'([^'\n]*)'/g, '"$1"');
  return text
    .split('\n')
    .map((line) => {
      const indent = /^( *)/.exec(line)![1];
      // Two spaces are a level; the odd one left is a block comment's ` * `, kept.
      const laidOut = style.unit.repeat(Math.floor(indent.length / 2)) + ' '.repeat(indent.length % 2) + line.slice(indent.length);
      return style.semi ? laidOut : laidOut.replace(/;$/, '');
    })
    .join(style.eol);
}

/** `131072` as `128 * 1024`, the way a person writes a byte limit. */
export function bytesText(bytes: number): string {
  return bytes > 0 && bytes % 1024 === 0 ? `${bytes / 1024} * 1024` : String(bytes);
}

/** The JavaScript of a piece: its types left out, and the lines that then hold only a type (a generic's constraint) dropped. */
function stripTypes(text: string): string {
  return text
    .replace(/«[^»]*»/g, '')
    .replace(/\(\n((?:\s*[^\n(),]*,\n)+)\)/g, (_list, lines: string) => `(${lines.split(',\n').map((line) => line.trim()).filter(Boolean).join(', ')})`)
    .replace(/\(\n\s*([^\n(),]*),?\n\)/g, '($1)');
}
