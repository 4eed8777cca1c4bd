import type { DrainBounds } from '../contract/drain-options.js';
import { DRAIN_HAND_OFF_METHOD } from '../analysis/hand-off.js';
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

const DRAIN_CHUNKS = `/** Reads to the end; past the limits, or on a read error, calls close(). */
async function drainChunks(
  read«: () => Promise<{ done?: boolean; value?: unknown }>»,
  close«: () => unknown»,
)«: Promise<void>» {
  const giveUp = closeOnce(close);
  const onTimeout = ()«: void» => {
    void giveUp();
  };
  const { timeoutMs, maxBytes } = DRAIN_LIMITS;
  const timer = timeoutMs > 0 ? setTimeout(onTimeout, timeoutMs) : undefined;
  const chunks«: AsyncIterable<unknown>» = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const chunk = await read();
        return { done: chunk.done === true, value: chunk.value };
      },
    }),
  };
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      bytes += chunkSize(chunk);
      if (maxBytes > 0 && bytes > maxBytes) {
        await giveUp();
        return;
      }
    }
  } catch {
    await giveUp();
  } finally {
    clearTimeout(timer);
  }
}`;

const DRAIN_READER = `/** Reads a body to its end after the terminal event: its socket is reused. */
%EXPORT%function drainReader«<
  R extends { read: () => Promise<{ done?: boolean; value?: unknown }> },
>»(reader«: R», close«: (reader: R) => unknown»)«: Promise<void>» {
  return drainChunks(
    () => reader.read(),
    () => close(reader),
  );
}`;

const DRAIN_ITERATOR = `/** Reads parsed messages to their end, as drainReader() reads a body. */
%EXPORT%function drainIterator«<
  I extends { next: () => Promise<{ done?: boolean; value?: unknown }> },
>»(iterator«: I», close«: (iterator: I) => unknown»)«: Promise<void>» {
  return drainChunks(
    () => iterator.next(),
    () => close(iterator),
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

const DRAINABLE_BODY = `/** drainable() for a loop over a body: a web one is tapped, else destroyed. */
%EXPORT%function drainableBody«<T>»(
  body«: AsyncIterable<T> & { destroy?: () => unknown }»,
)«: AsyncIterable<T> & { %HAND_OFF%: () => void }» {
  if (isWebStream(body)) {
    const tapped = tapBody(body);
    return drainable(readChunks(tapped.body), tapped.drain);
  }
  return drainable(body, (rest) =>
    drainIterator(rest, () =>
      body.destroy ? body.destroy() : rest.return?.(),
    ),
  );
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

const TAP_RESPONSE = `/** tapBody() for a parser given a Response: same status and headers. */
%EXPORT%function tapResponse(response«: Response»)«: {
  response: Response;
  drain: () => Promise<void>;
}» {
  if (!response.body) {
    return { response, drain: () => Promise.resolve() };
  }
  const tapped = tapBody(response.body);
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
    if (maxBytes > 0 && bytes > maxBytes) {
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
  drainChunks: { template: DRAIN_CHUNKS, uses: ['bounds', 'chunkSize', 'closeOnce'], declares: ['drainChunks'] },
  drainReader: { template: DRAIN_READER, uses: ['drainChunks'], declares: ['drainReader'] },
  drainIterator: { template: DRAIN_ITERATOR, uses: ['drainChunks'], declares: ['drainIterator'] },
  drainable: { template: DRAINABLE, uses: [], declares: ['drainable'] },
  tapBody: { template: TAP_BODY, uses: ['drainReader'], declares: ['tapBody'] },
  tapResponse: { template: TAP_RESPONSE, uses: ['tapBody'], declares: ['tapResponse'] },
  isWebStream: { template: IS_WEB_STREAM, uses: [], declares: ['isWebStream'] },
  readChunks: { template: READ_CHUNKS, uses: [], declares: ['readChunks'] },
  drainableBody: { template: DRAINABLE_BODY, uses: ['drainable', 'drainIterator', 'tapBody', 'isWebStream', 'readChunks'], declares: ['drainableBody'] },
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
  return ORDER.filter((name) => PIECES[name].declares.every((identifier) => declared.has(`${identifier}${suffix}`)));
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
  let text = piece.template
    .replace('%TIMEOUT%', String(bounds.drainTimeoutMs))
    .replace('%MAX_BYTES%', bytesText(bounds.drainMaxBytes))
    .replaceAll('%HAND_OFF%', HAND_OFF_METHOD)
    .replaceAll('%EXPORT%', exported ? 'export ' : '');
  text = style.typescript ? text.replace(/‹[^›]*›/g, '').replace(/[«»]/g, '') : stripTypes(text.replace(/[‹›]/g, ''));
  if (rename && rename.size > 0) {
    const pattern = new RegExp(`(?<![\\w$.])(${[...rename.keys()].join('|')})\\b`, 'g');
    text = text.replace(pattern, (name: string) => rename.get(name) ?? name);
  }
  if (style.quote === '"') text = text.replace(/'([^'\n]*)'/g, '"$1"');
  return text
    .split('\n')
    .map((line) => {
      const indent = /^( *)/.exec(line)![1];
      const laidOut = style.unit.repeat(indent.length / 2) + line.slice(indent.length);
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
    .replace(/\(\n\s*([^\n()]*),\n\s*([^\n()]*),\n\)/g, '($1, $2)')
    .replace(/\(\n\s*([^\n(),]*),?\n\)/g, '($1)');
}
