import { HAND_OFF_METHOD, layOut, type PieceName } from './helpers.js';
import type { Style } from './style.js';

/**
 * The test `drainguard fix` writes with the helper module: one suite per piece the module exports, each against a
 * local `node:http` server (on 127.0.0.1, in the test file: the repository does not depend on drainguard) that ends,
 * holds, trickles, floods or resets the body after the terminal event, read through Node's own fetch and http client,
 * with `node:assert`, so that the same text runs under vitest, jest, mocha and `node:test`. The module's limits are
 * shortened while each test runs (it exports `DRAIN_LIMITS`) and restored after it. Written like the pieces in
 * helpers.ts: TypeScript laid out as prettier lays it out at 80 columns with two-space indentation, `«…»` what only
 * TypeScript keeps.
 */

export type TestFramework = 'vitest' | 'jest' | 'mocha' | 'node:test';

/** How the test file is written: what the repository's own tests do. */
export interface HelperTestOptions {
  framework: TestFramework;
  /** `describe`/`it` imported from the framework (vitest, `node:test`, jest's `@jest/globals`), or used as globals. */
  importGlobals: boolean;
  /** `it` or `test`, as the repository's tests name a test. */
  testFunction: 'it' | 'test';
  /** The helper module, as the test imports it (`./drain-body.js`, `../../src/core/drain-body`). */
  moduleSpecifier: string;
  /** A pragma that runs the file in Node where the repository's config sets another environment (`edge-runtime`, `jsdom`). */
  nodeEnvironment: boolean;
  /** `/// <reference types="node" />`, where the tsconfig that applies lists its \`types\` without Node's (TypeScript). */
  referenceNodeTypes?: boolean;
  /** Types imported with the values (`import { a, type B }`) or on a line of their own (`import type { B }`, the default). */
  typeImports?: 'inline' | 'separate';
  style: Style;
}

/** The first line of every test drainguard writes: how a later run tells its own test from a file of the user's. */
export const HELPER_TEST_MARK = '// Tests of the drain helpers, written by drainguard fix with the module (and';

const HEADER = `${HELPER_TEST_MARK}
// again when it gains pieces): each drain runs against a local server that
// ends, holds, trickles, floods or resets the body after the terminal event.`;

/** Whether `text` is a test drainguard wrote (it may rewrite it), not a file of the user's. */
export function isHelperTest(text: string): boolean {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/, 8).some((line) => line === HELPER_TEST_MARK);
}

const CONSTANTS = `/** The event after which the code closed the body, and what then ends it. */
const TERMINAL = 'data: [DONE]\\n\\n';
const END = ': the end\\n\\n';

/** Limits short enough for a test (each test restores the module's own). */
const TEST_LIMITS = { timeoutMs: 100, maxBytes: 64 * 1024 };`;

const WITH_LIMITS = `/** Runs \`test\` with the module's limits set to \`limits\`, then restores them. */
async function withLimits(
  limits«: { timeoutMs?: number; maxBytes?: number }»,
  test«: () => Promise<void>»,
)«: Promise<void>» {
  const saved = { ...DRAIN_LIMITS };
  Object.assign(DRAIN_LIMITS, TEST_LIMITS, limits);
  try {
    await test();
  } finally {
    Object.assign(DRAIN_LIMITS, saved);
  }
}`;

const PEER = `/** Writes as fast as the client reads, until it closes. */
function flood(response«: ServerResponse»)«: void» {
  const chunk = ':'.repeat(16 * 1024);
  const write = ()«: void» => {
    let writable = true;
    while (writable && !response.destroyed) {
      writable = response.write(chunk);
    }
  };
  response.on('drain', write);
  write();
}

«/** A local server: every body starts with the terminal event. */
interface Peer {
  /** A URL whose body then ends, is held open, trickles or floods. */
  url: (tail: 'end' | 'hold' | 'trickle' | 'flood') => string;
  /** The connections the server has accepted. */
  connections: () => number;
  /** Makes another request once fetch has pooled the socket: the connections. */
  connectionsAfterAnother: () => Promise<number>;
  /** Ends the bodies held open. */
  end: () => void;
  /** Resets the connections of the bodies held open. */
  reset: () => void;
  /** Resolves once the client has closed a body before its end. */
  closedEarly: () => Promise<void>;
}

»/** Runs \`test\` against a new local server, with the limits set. */
async function withPeer(
  limits«: { timeoutMs?: number; maxBytes?: number }»,
  test«: (peer: Peer) => Promise<void>»,
)«: Promise<void>» {
  const held = new Set«<ServerResponse>»();
  const events = new EventTarget();
  let connections = 0;
  let earlyCloses = 0;
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(TERMINAL);
    response.on('close', () => {
      held.delete(response);
      if (!response.writableEnded) {
        earlyCloses += 1;
        events.dispatchEvent(new Event('closed-early'));
      }
    });
    if (request.url === '/end') {
      response.end(END);
    } else if (request.url === '/trickle') {
      const timer = setInterval(() => response.write(':\\n'), 5);
      response.on('close', () => clearInterval(timer));
    } else if (request.url === '/flood') {
      flood(response);
    } else {
      held.add(response);
    }
  });
  server.on('connection', () => {
    connections += 1;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('the test server has no port');
  }
  const peer«: Peer» = {
    url: (tail) => \`http://127.0.0.1:\${address.port}/\${tail}\`,
    connections: () => connections,
    connectionsAfterAnother: async () => {
      await setImmediate();
      const response = await fetch(peer.url('end'));
      await response.text();
      return connections;
    },
    end: () => {
      for (const response of held) {
        response.end(END);
      }
    },
    reset: () => {
      for (const response of held) {
        response.socket?.destroy();
      }
    },
    closedEarly: async () => {
      if (earlyCloses === 0) {
        await once(events, 'closed-early');
      }
    },
  };
  try {
    await withLimits(limits, () => test(peer));
  } finally {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
}`;

const BODY_AFTER_TERMINAL = `/** A fetch body whose terminal event the code has read. */
async function bodyAfterTerminal(url«: string», signal«?: AbortSignal») {
  const response = await fetch(url, { signal: signal ?? null });
  if (!response.body) {
    throw new Error('the response has no body');
  }
  const reader = response.body.getReader();
  const first = await reader.read();
  assert.ok(new TextDecoder().decode(first.value).startsWith(TERMINAL));
  return reader;
}`;

const FETCH_BODY = `/** A fetch body, which Node's \`for await\` reads (whatever the DOM types say). */
async function fetchBody(url«: string») {
  const { body } = await fetch(url);
  if (!body) {
    throw new Error('the response has no body');
  }
  return body« as ReadableStream<Uint8Array> & AsyncIterable<Uint8Array>»;
}`;

const CANCEL_OF = `/** The code's own close: a cancel with its reason, counting its calls. */
function cancelOf(reader«: { cancel: (reason?: unknown) => Promise<void> }») {
  const counted = {
    calls: 0,
    close: async () => {
      counted.calls += 1;
      await reader.cancel('done');
    },
  };
  return counted;
}`;

const EVENTUALLY = `/** Resolves once \`check()\` holds (a drain in the background has ended). */
async function eventually(check«: () => boolean»)«: Promise<void>» {
  if (!check()) {
    await sleep(5);
    await eventually(check);
  }
}`;

const NODE_GET = `/** A GET with Node's http client: its response is a Node stream. */
async function nodeGet(url«: string», agent«: Agent»)«: Promise<IncomingMessage>» {
  const [response] = await once(get(url, { agent }), 'response');
  return response;
}`;

const TYPED_AS_WEB = `«/** A custom fetch (node-fetch 2) gives a Node stream where a web one is typed. */
function typedAsWeb(body: unknown): ReadableStream<Uint8Array> {
  return body as ReadableStream<Uint8Array>;
}»`;

const TRICKLING = `/** An async iterable with no destroy() (no Node stream) that trickles. */
function trickling() {
  const state = { returned: false };
  const iterable«: AsyncIterable<string>» = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        await sleep(5);
        return state.returned
          ? { done: true, value: undefined }
          : { done: false, value: ':' };
      },
      return: () => {
        state.returned = true;
        return Promise.resolve({ done: true, value: undefined });
      },
    }),
  };
  return { iterable, state };
}`;

const DRAINS_A_BODY = `«/** A drain of what \`read()\` reads, called as the rewrite calls it. */
type Drain = (
  read: () => Promise<{ done?: boolean; value?: unknown }>,
  close: () => unknown,
) => Promise<void>;

»/** What every drain of a body does, against a real server. */
function drainsABody(drain«: Drain»)«: void» {
  it('reads a body that ends to EOF, and the next request reuses the connection', async () => {
    await withPeer({}, async (peer) => {
      const reader = await bodyAfterTerminal(peer.url('hold'));
      const cancel = cancelOf(reader);
      const drained = drain(() => reader.read(), cancel.close);
      peer.end();
      await drained;
      assert.equal(cancel.calls, 0);
      assert.equal(await peer.connectionsAfterAnother(), 1);
    });
  });

  it('closes a body held open at its time budget, with the close of the code', async () => {
    await withPeer({}, async (peer) => {
      const reader = await bodyAfterTerminal(peer.url('hold'));
      const cancel = cancelOf(reader);
      await drain(() => reader.read(), cancel.close);
      assert.equal(cancel.calls, 1);
      await peer.closedEarly();
    });
  });

  it('closes a trickling body at its time budget', async () => {
    await withPeer({}, async (peer) => {
      const reader = await bodyAfterTerminal(peer.url('trickle'));
      const cancel = cancelOf(reader);
      await drain(() => reader.read(), cancel.close);
      assert.equal(cancel.calls, 1);
      await peer.closedEarly();
    });
  });

  it('closes a flooding body at its byte limit', async () => {
    await withPeer({ timeoutMs: 60_000 }, async (peer) => {
      const reader = await bodyAfterTerminal(peer.url('flood'));
      const cancel = cancelOf(reader);
      await drain(() => reader.read(), cancel.close);
      assert.equal(cancel.calls, 1);
      await peer.closedEarly();
    });
  });

  it('ends quietly on a reset: no error reaches the code', async () => {
    await withPeer({}, async (peer) => {
      const reader = await bodyAfterTerminal(peer.url('hold'));
      const cancel = cancelOf(reader);
      const drained = drain(() => reader.read(), cancel.close);
      peer.reset();
      await assert.doesNotReject(drained);
      assert.equal(cancel.calls, 1);
    });
  });
}`;

/** The suite of a drain of a reader or an iterator: what every drain of a body does (and, for the first, its bounds). */
const READER_SUITE = `describe('%NAME%', %SUITE_OPTIONS%() => {
  drainsABody((read, close) => %CALL%);%BOUNDS%
});`;

const DRAIN_CALLS: Partial<Record<PieceName, string>> = {
  drainReader: 'drainReader({ read }, close)',
  drainMessages: 'drainMessages({ read }, close)',
  drainBodyChunks: 'drainBodyChunks({ next: read }, close)',
  drainIterator: 'drainIterator({ next: read }, close)',
};

/** How the shared drain (drainChunks: its byte count, its close, the drain under way) behaves, through the first drain. */
const WITHIN_BOUNDS = `/** How a drain counts, closes and gives way, whichever piece calls it. */
function drainsWithinBounds(drain«: Drain»)«: void» {
  it('counts characters of strings and the JSON length of messages', async () => {
    await withLimits({ maxBytes: 20 }, async () => {
      const values«: unknown[]» = ['abc', { n: 1 }, null, 'defghij', 'unread'];
      let closes = 0;
      await drain(
        () => Promise.resolve({ done: false, value: values.shift() }),
        () => {
          closes += 1;
        },
      );
      assert.deepEqual(values, ['unread']);
      assert.equal(closes, 1);
    });
  });

  it('reads to the end without limits (0)', async () => {
    await withPeer({ timeoutMs: 0, maxBytes: 0 }, async (peer) => {
      const reader = await bodyAfterTerminal(peer.url('hold'));
      const cancel = cancelOf(reader);
      const drained = drain(() => reader.read(), cancel.close);
      peer.end();
      await drained;
      assert.equal(cancel.calls, 0);
    });
  });

  it('ends quietly when its close fails', async () => {
    await withPeer({}, async (peer) => {
      const reader = await bodyAfterTerminal(peer.url('hold'));
      const close = async () => {
        await reader.cancel();
        throw new Error('the close failed');
      };
      await assert.doesNotReject(drain(() => reader.read(), close));
    });
  });

  it('ends quietly when its close aborts the request and fails the read', async () => {
    await withPeer({}, async (peer) => {
      const controller = new AbortController();
      const reader = await bodyAfterTerminal(
        peer.url('hold'),
        controller.signal,
      );
      const abort = () => controller.abort();
      await assert.doesNotReject(drain(() => reader.read(), abort));
      await peer.closedEarly();
    });
  });

  it('gives up a drain still under way when the next one starts', async () => {
    await withPeer({ timeoutMs: 60_000 }, async (peer) => {
      const first = await bodyAfterTerminal(peer.url('hold'));
      const second = await bodyAfterTerminal(peer.url('hold'));
      const firstCancel = cancelOf(first);
      const secondCancel = cancelOf(second);
      const firstDrain = drain(() => first.read(), firstCancel.close);
      const secondDrain = drain(() => second.read(), secondCancel.close);
      await firstDrain;
      assert.equal(firstCancel.calls, 1);
      peer.end();
      await secondDrain;
      assert.equal(secondCancel.calls, 0);
    });
  });
}`;

const MESSAGES = `/**
 * Parsed messages, the terminal event among them; \`state.closed\` says
 * whether their iterator was closed (or ran out).
 */
function messages(state«: { closed: boolean }»)«: AsyncIterable<string>» {
  const values = ['event', '[DONE]', 'tail', 'more'];
  const close = ()«: Promise<IteratorResult<string>>» => {
    state.closed = true;
    return Promise.resolve({ done: true, value: undefined });
  };
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const value = values.shift();
        return value === undefined
          ? close()
          : Promise.resolve({ done: false, value });
      },
      return: close,
    }),
  };
}`;

const DRAINABLE_SUITE = `describe('drainable', %SUITE_OPTIONS%() => {
  it('hands the rest over to its drain at the terminal event', async () => {
    const state = { closed: false };
    const seen«: string[]» = [];
    const rest«: string[]» = [];
    let drained = Promise.resolve();
    const readRest = async (iterator«: AsyncIterator<string>»)«: Promise<void>» => {
      const next = await iterator.next();
      if (next.done !== true) {
        rest.push(next.value);
        await readRest(iterator);
      }
    };
    const events = drainable(messages(state), (iterator) => {
      drained = readRest(iterator);
      return drained;
    });
    for await (const event of events) {
      seen.push(event);
      if (event === '[DONE]') {
        events.%HAND_OFF%();
        events.%HAND_OFF%();
        break;
      }
    }
    await drained;
    assert.deepEqual(seen, ['event', '[DONE]']);
    assert.deepEqual(rest, ['tail', 'more']);
    assert.equal(state.closed, true);
    const after = await events[Symbol.asyncIterator]().next();
    assert.equal(after.done, true);
  });

  it('closes its source as before when the loop leaves without a hand-off', async () => {
    const state = { closed: false };
    let handedOff = false;
    const events = drainable(messages(state), () => {
      handedOff = true;
      return Promise.resolve();
    });
    for await (const event of events) {
      if (event === '[DONE]') {
        break;
      }
    }
    assert.equal(state.closed, true);
    assert.equal(handedOff, false);
  });

  it('leaves a source without return() as it is', async () => {
    const source = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ done: false, value: '[DONE]' }),
      }),
    };
    let seen = 0;
    for await (const event of drainable(source, () => Promise.resolve())) {
      seen += 1;
      if (event === '[DONE]') {
        break;
      }
    }
    assert.equal(seen, 1);
  });
});`;

const DRAINABLE_BODY_SUITE = `describe('drainableBody', %SUITE_OPTIONS%() => {
  it('reads a fetch body to its end as before, and lets go of it', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('end'));
      const text«: string[]» = [];
      for await (const chunk of drainableBody(body)) {
        text.push(new TextDecoder().decode(chunk));
      }
      assert.equal(text.join(''), \`\${TERMINAL}\${END}\`);
      assert.equal(body.locked, false);
    });
  });

  it('hands a fetch body over to a drain that reads it to EOF', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('hold'));
      const chunks = drainableBody(body);
      for await (const chunk of chunks) {
        if (new TextDecoder().decode(chunk) === TERMINAL) {
          chunks.%HAND_OFF%();
          break;
        }
      }
      peer.end();
      await eventually(() => !body.locked);
      assert.equal(await peer.connectionsAfterAnother(), 1);
    });
  });

  it('closes a fetch body held open at its time budget', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('hold'));
      const chunks = drainableBody(body);
      for await (const chunk of chunks) {
        if (new TextDecoder().decode(chunk) === TERMINAL) {
          chunks.%HAND_OFF%();
          break;
        }
      }
      await peer.closedEarly();
      await eventually(() => !body.locked);
    });
  });

  it('cancels a fetch body as before when the loop leaves without a hand-off', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('hold'));
      for await (const chunk of drainableBody(body)) {
        if (new TextDecoder().decode(chunk) === TERMINAL) {
          break;
        }
      }
      await peer.closedEarly();
      assert.equal(body.locked, false);
    });
  });

  it('hands a Node stream over to a drain that reads it to the end', async () => {
    await withPeer({}, async (peer) => {
      const agent = new Agent({ keepAlive: true });
      try {
        const response = await nodeGet(peer.url('hold'), agent);
        const chunks = drainableBody(response);
        for await (const chunk of chunks) {
          if (String(chunk) === TERMINAL) {
            chunks.%HAND_OFF%();
            break;
          }
        }
        const closed = once(response, 'close');
        peer.end();
        await closed;
        assert.equal(response.readableEnded, true);
        const second = await nodeGet(peer.url('end'), agent);
        second.resume();
        await once(second, 'end');
        assert.equal(peer.connections(), 1);
      } finally {
        agent.destroy();
      }
    });
  });

  it('destroys a Node stream held open at its time budget', async () => {
    await withPeer({}, async (peer) => {
      const agent = new Agent({ keepAlive: true });
      try {
        const response = await nodeGet(peer.url('hold'), agent);
        const chunks = drainableBody(response);
        for await (const chunk of chunks) {
          if (String(chunk) === TERMINAL) {
            chunks.%HAND_OFF%();
            break;
          }
        }
        await peer.closedEarly();
        await eventually(() => response.destroyed);
      } finally {
        agent.destroy();
      }
    });
  });

  it('ends an iterable without destroy() with return() at its time budget', async () => {
    await withLimits({}, async () => {
      const { iterable, state } = trickling();
      const chunks = drainableBody(iterable);
      for await (const chunk of chunks) {
        if (chunk === ':') {
          chunks.%HAND_OFF%();
          break;
        }
      }
      await eventually(() => state.returned);
    });
  });
});`;

const TAP_BODY_SUITE = `describe('tapBody', %SUITE_OPTIONS%() => {
  it('gives the parser the same bytes, and its drain reads the rest to EOF', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('hold'));
      const tapped = tapBody(body);
      const first = await tapped.body.getReader().read();
      assert.equal(new TextDecoder().decode(first.value), TERMINAL);
      const drained = tapped.drain();
      peer.end();
      await drained;
      assert.equal(body.locked, false);
      assert.equal(await peer.connectionsAfterAnother(), 1);
    });
  });

  it('lets go of a body the parser reads to its end', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('end'));
      const text = await new Response(tapBody(body).body).text();
      assert.equal(text, \`\${TERMINAL}\${END}\`);
      assert.equal(body.locked, false);
    });
  });

  it('closes a body held open at its time budget', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('hold'));
      const tapped = tapBody(body);
      await tapped.body.getReader().read();
      await tapped.drain();
      await peer.closedEarly();
      assert.equal(body.locked, false);
    });
  });

  it('closes a flooding body at its byte limit', async () => {
    await withPeer({ timeoutMs: 60_000 }, async (peer) => {
      const body = await fetchBody(peer.url('flood'));
      const tapped = tapBody(body);
      await tapped.body.getReader().read();
      await tapped.drain();
      await peer.closedEarly();
    });
  });

  it('passes a reset to the parser as before, and lets go of the body', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('hold'));
      const reader = tapBody(body).body.getReader();
      await reader.read();
      peer.reset();
      await assert.rejects(reader.read());
      assert.equal(body.locked, false);
    });
  });

  it('ends its drain quietly on a reset', async () => {
    await withPeer({}, async (peer) => {
      const body = await fetchBody(peer.url('hold'));
      const tapped = tapBody(body);
      await tapped.body.getReader().read();
      const drained = tapped.drain();
      peer.reset();
      await assert.doesNotReject(drained);
    });
  });

  it('cancels the body with the reason the parser gives', async () => {
    const reasons«: unknown[]» = [];
    const body = new ReadableStream«<Uint8Array>»({
      cancel: (reason) => {
        reasons.push(reason);
      },
    });
    await tapBody(body).body.cancel('parser done');
    assert.deepEqual(reasons, ['parser done']);
    assert.equal(body.locked, false);
  });

  it('leaves a Node stream to the parser, and its drain reads it on', async () => {
    const stream = Readable.from(['data: [DONE]', 'tail']);
    const tapped = tapBody(«typedAsWeb(»stream«)»);
    assert.equal(tapped.body, stream);
    await tapped.drain();
    assert.equal(stream.readableEnded, true);
  });

  it('destroys a Node stream held open at its time budget', async () => {
    await withLimits({}, async () => {
      const stream = new PassThrough();
      stream.write('data: [DONE]');
      await tapBody(«typedAsWeb(»stream«)»).drain();
      assert.equal(stream.destroyed, true);
    });
  });

  it('ends an iterable without destroy() with return() at its time budget', async () => {
    await withLimits({}, async () => {
      const { iterable, state } = trickling();
      await tapBody(«typedAsWeb(»iterable«)»).drain();
      assert.equal(state.returned, true);
    });
  });

  it('ends an iterable with neither destroy() nor return() at its byte limit', async () => {
    await withLimits({ maxBytes: 40 }, async () => {
      const iterator = trickling().iterable[Symbol.asyncIterator]();
      const iterable = {
        [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }),
      };
      await assert.doesNotReject(tapBody(«typedAsWeb(»iterable«)»).drain());
    });
  });

  it('has nothing to drain in a body that is no stream', async () => {
    await assert.doesNotReject(tapBody(«typedAsWeb(»{}«)»).drain());
  });
});`;

const TAP_RESPONSE_SUITE = `describe('tapResponse', %SUITE_OPTIONS%() => {
  it('gives the parser the same status, headers and bytes, and drains the rest', async () => {
    await withPeer({}, async (peer) => {
      const response = await fetch(peer.url('hold'));
      const tapped = tapResponse(response);
      assert.equal(tapped.response.status, response.status);
      assert.equal(
        tapped.response.headers.get('content-type'),
        'text/event-stream',
      );
      const { body } = tapped.response;
      if (!body) {
        throw new Error('the stand-in has no body');
      }
      const first = await body.getReader().read();
      assert.equal(new TextDecoder().decode(first.value), TERMINAL);
      const drained = tapped.drain();
      peer.end();
      await drained;
      assert.equal(await peer.connectionsAfterAnother(), 1);
    });
  });

  it('closes a body held open at its time budget', async () => {
    await withPeer({}, async (peer) => {
      const response = await fetch(peer.url('hold'));
      const tapped = tapResponse(response);
      await tapped.drain();
      await peer.closedEarly();
    });
  });

  it('hands over a response without a body as it is', async () => {
    const response = new Response(null);
    const tapped = tapResponse(response);
    assert.equal(tapped.response, response);
    await assert.doesNotReject(tapped.drain());
  });

  it('hands over a response with a Node stream body as it is', async () => {
    const response = Object.defineProperty(new Response(null), 'body', {
      value: Readable.from(['data: [DONE]']),
    });
    const tapped = tapResponse(response);
    assert.equal(tapped.response, response);
    await assert.doesNotReject(tapped.drain());
  });
});`;

const DRAIN_NODE_STREAM_SUITE = `describe('drainNodeStream', %SUITE_OPTIONS%() => {
  /** Reads a response as the code does, draining it at the terminal event. */
  function readToTerminal(response«: IncomingMessage») {
    const seen«: string[]» = [];
    const destroys = { calls: 0 };
    const terminal = once(response, 'data');
    response.on('data', (chunk«: Buffer») => {
      seen.push(String(chunk));
      drainNodeStream(response, (stream) => {
        destroys.calls += 1;
        stream.destroy();
      });
    });
    response.on('end', () => seen.push('end'));
    response.on('error', () => seen.push('error'));
    return { seen, destroys, terminal, closed: once(response, 'close') };
  }

  it('reads the rest unseen, and the socket goes back to the agent', async () => {
    await withPeer({}, async (peer) => {
      const agent = new Agent({ keepAlive: true });
      try {
        const response = await nodeGet(peer.url('hold'), agent);
        const { seen, destroys, terminal, closed } = readToTerminal(response);
        await terminal;
        peer.end();
        await closed;
        assert.deepEqual(seen, [TERMINAL]);
        assert.equal(destroys.calls, 0);
        const second = await nodeGet(peer.url('end'), agent);
        second.resume();
        await once(second, 'end');
        assert.equal(peer.connections(), 1);
      } finally {
        agent.destroy();
      }
    });
  });

  it('destroys a body held open at its time budget, with the close of the code', async () => {
    await withPeer({}, async (peer) => {
      const agent = new Agent({ keepAlive: true });
      try {
        const response = await nodeGet(peer.url('hold'), agent);
        const { destroys, closed } = readToTerminal(response);
        await closed;
        assert.equal(destroys.calls, 1);
        await peer.closedEarly();
      } finally {
        agent.destroy();
      }
    });
  });

  it('destroys a flooding body at its byte limit', async () => {
    await withPeer({ timeoutMs: 60_000 }, async (peer) => {
      const agent = new Agent({ keepAlive: true });
      try {
        const response = await nodeGet(peer.url('flood'), agent);
        const { destroys, closed } = readToTerminal(response);
        await closed;
        assert.equal(destroys.calls, 1);
        await peer.closedEarly();
      } finally {
        agent.destroy();
      }
    });
  });

  it('ends quietly on a reset: no error reaches the code', async () => {
    await withPeer({}, async (peer) => {
      const agent = new Agent({ keepAlive: true });
      try {
        const response = await nodeGet(peer.url('hold'), agent);
        const { seen, destroys, terminal, closed } = readToTerminal(response);
        await terminal;
        peer.reset();
        await closed;
        assert.deepEqual(seen, [TERMINAL]);
        assert.equal(destroys.calls, 0);
      } finally {
        agent.destroy();
      }
    });
  });

  it('reads to the end without limits (0)', async () => {
    await withPeer({ timeoutMs: 0, maxBytes: 0 }, async (peer) => {
      const agent = new Agent({ keepAlive: true });
      try {
        const response = await nodeGet(peer.url('hold'), agent);
        const { seen, terminal, closed } = readToTerminal(response);
        await terminal;
        peer.end();
        await closed;
        assert.deepEqual(seen, [TERMINAL]);
      } finally {
        agent.destroy();
      }
    });
  });

  it('calls its close once, and swallows its error', async () => {
    await withLimits({ maxBytes: 16 }, async () => {
      const stream = new PassThrough();
      let closes = 0;
      drainNodeStream(stream, () => {
        closes += 1;
        throw new Error('the close failed');
      });
      stream.write('data: more than sixteen bytes');
      stream.end('and more');
      await once(stream, 'end');
      assert.equal(closes, 1);
    });
  });
});`;

type PartName =
  | 'constants'
  | 'withLimits'
  | 'peer'
  | 'bodyAfterTerminal'
  | 'fetchBody'
  | 'cancelOf'
  | 'eventually'
  | 'nodeGet'
  | 'typedAsWeb'
  | 'trickling'
  | 'drainsABody'
  | 'drainsWithinBounds'
  | 'messages';

/** The test's own helpers, in file order: a part comes after the parts it uses. */
const PARTS: Record<PartName, { template: string; uses: PartName[] }> = {
  constants: { template: CONSTANTS, uses: [] },
  withLimits: { template: WITH_LIMITS, uses: ['constants'] },
  peer: { template: PEER, uses: ['constants', 'withLimits'] },
  bodyAfterTerminal: { template: BODY_AFTER_TERMINAL, uses: ['constants'] },
  fetchBody: { template: FETCH_BODY, uses: [] },
  cancelOf: { template: CANCEL_OF, uses: [] },
  eventually: { template: EVENTUALLY, uses: [] },
  nodeGet: { template: NODE_GET, uses: [] },
  typedAsWeb: { template: TYPED_AS_WEB, uses: [] },
  trickling: { template: TRICKLING, uses: [] },
  drainsABody: { template: DRAINS_A_BODY, uses: ['peer', 'bodyAfterTerminal', 'cancelOf'] },
  drainsWithinBounds: { template: WITHIN_BOUNDS, uses: ['drainsABody', 'withLimits'] },
  messages: { template: MESSAGES, uses: [] },
};

const PART_ORDER = Object.keys(PARTS) as PartName[];

/** The suite of each piece the module exports, in the module's order, and the parts it uses. */
const SUITES: { piece: PieceName; template: string; uses: PartName[] }[] = [
  ...(['drainReader', 'drainIterator', 'drainBodyChunks', 'drainMessages'] as const).map((piece) => ({
    piece,
    template: READER_SUITE.replace('%NAME%', piece).replace('%CALL%', DRAIN_CALLS[piece]!),
    uses: ['drainsABody', 'drainsWithinBounds'] satisfies PartName[],
  })),
  { piece: 'drainable', template: DRAINABLE_SUITE, uses: ['messages'] },
  { piece: 'tapBody', template: TAP_BODY_SUITE, uses: ['peer', 'fetchBody', 'typedAsWeb', 'trickling', 'withLimits'] },
  { piece: 'tapResponse', template: TAP_RESPONSE_SUITE, uses: ['peer'] },
  { piece: 'drainableBody', template: DRAINABLE_BODY_SUITE, uses: ['peer', 'fetchBody', 'eventually', 'nodeGet', 'trickling', 'withLimits'] },
  { piece: 'drainNodeStream', template: DRAIN_NODE_STREAM_SUITE, uses: ['peer', 'nodeGet', 'withLimits'] },
];

/** The pieces a test has a suite for: those the helper module exports to the rewritten files. */
export const TESTED_PIECES: readonly PieceName[] = SUITES.map((suite) => suite.piece);

/** What the test imports from Node, by module; a name is imported where the test's text uses it (types only in TypeScript). */
const NODE_IMPORTS: { from: string; values: string[]; types: string[] }[] = [
  { from: 'node:assert', values: ['strict as assert'], types: [] },
  { from: 'node:events', values: ['once'], types: [] },
  { from: 'node:http', values: ['Agent', 'createServer', 'get'], types: ['IncomingMessage', 'ServerResponse'] },
  { from: 'node:stream', values: ['PassThrough', 'Readable'], types: [] },
  { from: 'node:timers/promises', values: ['setImmediate', 'setTimeout as sleep'], types: [] },
];

const FRAMEWORK_MODULE: Record<TestFramework, string> = { vitest: 'vitest', jest: '@jest/globals', mocha: 'mocha', 'node:test': 'node:test' };

/**
 * The test of a helper module that declares `pieces` (the pieces it exports get a suite each; what they use is tested
 * through them), in the framework and style of `options`. Empty where the module exports no piece a test covers.
 */
export function helperTestText(pieces: Iterable<PieceName>, options: HelperTestOptions): string {
  const present = new Set(pieces);
  const suites = SUITES.filter((suite) => present.has(suite.piece));
  if (suites.length === 0) return '';
  const parts = new Set<PartName>();
  const addPart = (name: PartName): void => {
    if (parts.has(name)) return;
    parts.add(name);
    for (const used of PARTS[name].uses) addPart(used);
  };
  for (const suite of suites) for (const part of suite.uses) addPart(part);
  const suiteOptions = options.framework === 'node:test' ? '{ timeout: 10_000 }, ' : '';
  let bounds = false;
  const suiteTexts = suites.map(({ piece, template }) => {
    let text = template.replaceAll('%SUITE_OPTIONS%', suiteOptions).replaceAll('%HAND_OFF%', HAND_OFF_METHOD);
    if (text.includes('%BOUNDS%')) {
      text = text.replace('%BOUNDS%', bounds ? '' : `\n  drainsWithinBounds((read, close) => ${DRAIN_CALLS[piece]!});`);
      bounds = true;
    }
    return { piece, text };
  });
  const templates = [...PART_ORDER.filter((name) => parts.has(name)).map((name) => PARTS[name].template), ...suiteTexts.map((suite) => suite.text)]
    .filter((template) => template !== '');
  const { style } = options;
  let body = templates.map((template) => layOut(template, style)).filter((text) => text.trim() !== '').join(`${style.eol}${style.eol}`);
  if (options.testFunction === 'test') body = body.replace(/^(\s*)it\(/gm, '$1test(');
  const moduleNames = ['DRAIN_LIMITS', ...suiteTexts.map((suite) => suite.piece)];
  const imports = [
    ...NODE_IMPORTS.flatMap(({ from, values, types }) => {
      const used = values.filter((name) => uses(body, name));
      const usedTypes = style.typescript ? types.filter((name) => uses(body, name)) : [];
      if (options.typeImports === 'inline' && used.length > 0) return [importLine([...used, ...usedTypes.map((name) => `type ${name}`)], from, style)];
      return [...(used.length > 0 ? [importLine(used, from, style)] : []), ...(usedTypes.length > 0 ? [importLine(usedTypes, from, style, 'import type')] : [])];
    }),
    ...(options.importGlobals ? [importLine(['describe', options.testFunction], FRAMEWORK_MODULE[options.framework], style)] : []),
    importLine(moduleNames, options.moduleSpecifier, style),
  ];
  const pragma = [...(options.nodeEnvironment ? pragmaLines(options.framework) : []), ...(options.referenceNodeTypes && style.typescript ? ['/// <reference types="node" />'] : [])];
  const header = layOut(HEADER, style);
  return `${[...pragma, header, ...imports].join(style.eol)}${style.eol}${style.eol}${body}${style.eol}`;
}

/** Whether the laid-out test's code (comments and string literals aside) uses `name` (the local name of `x as name`) as an identifier, not as a property. */
function uses(body: string, name: string): boolean {
  const local = name.split(' as ').at(-1)!;
  const code = body
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/'[^'\n]*'|"[^"\n]*"/g, "''");
  return new RegExp(`(?<![\\w$.])${local}\\b`).test(code);
}

/** Names sorted as import sorters sort them (case and `type` aside). */
function sortNames(names: readonly string[]): string[] {
  const key = (name: string): string => name.replace(/^type /, '').toLowerCase();
  return [...names].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** `import { a, b } from 'm';`, broken over lines where it is wider than the style's width (as prettier breaks it). */
function importLine(names: readonly string[], from: string, style: Style, keyword = 'import'): string {
  const sorted = sortNames(names);
  const quoted = `${style.quote}${from}${style.quote}`;
  const line = `${keyword} { ${sorted.join(', ')} } from ${quoted}${style.semi}`;
  if (line.length <= style.width) return line;
  return [`${keyword} {`, ...sorted.map((name) => `${style.unit}${name},`), `} from ${quoted}${style.semi}`].join(style.eol);
}

/** The per-file environment pragma of each framework that has one (mocha and `node:test` run in Node anyway). */
function pragmaLines(framework: TestFramework): string[] {
  if (framework === 'vitest') return ['// @vitest-environment node'];
  if (framework === 'jest') return ['/**', ' * @jest-environment node', ' */'];
  return [];
}
