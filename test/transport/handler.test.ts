// The handler drainOnAbort() puts under the consumer's, driven by hand: a fake connection controller below it and
// a recording handler above it, so each step (the abort, the double abort, the bounds, what passes through) is
// checked on its own. The same behaviour against real servers: undici.test.ts.
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { drainOnAbort, type DrainReport } from '../support/transport.mjs';

type Headers = Record<string, string | string[] | undefined>;

/** The connection's controller, as undici's would be: it records what the handler asks of it. */
class FakeController implements Dispatcher.DispatchController {
  calls: string[] = [];
  aborts: (Error | undefined)[] = [];
  #paused = false;
  #reason: Error | null = null;
  get aborted(): boolean {
    return this.aborts.length > 0;
  }
  get paused(): boolean {
    return this.#paused;
  }
  get reason(): Error | null {
    return this.#reason;
  }
  abort(reason: Error): void {
    this.calls.push('abort');
    this.aborts.push(reason);
    this.#reason = reason;
  }
  pause(): void {
    this.calls.push('pause');
    this.#paused = true;
  }
  resume(): void {
    this.calls.push('resume');
    this.#paused = false;
  }
}

/** A consumer's handler in undici's controller style that records every call. */
function recorder() {
  const events: string[] = [];
  let controller: Dispatcher.DispatchController | undefined;
  const errors: Error[] = [];
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(c) {
      controller = c;
      events.push('request start');
    },
    onResponseStart(_c, statusCode) {
      events.push(`response start ${statusCode}`);
    },
    onResponseData(_c, chunk) {
      events.push(`data ${chunk.length}`);
    },
    onResponseEnd() {
      events.push('end');
    },
    onResponseError(_c, error) {
      errors.push(error);
      events.push(`error ${error.message}`);
    },
  };
  return { handler, events, errors, controller: () => controller! };
}

/** drainOnAbort's handler over a fake connection: what it dispatched, and the connection's controller. */
function intercept(options: Parameters<typeof drainOnAbort>[0], opts: Partial<Dispatcher.DispatchOptions> = {}) {
  const dispatched: Dispatcher.DispatchHandler[] = [];
  const dispatch = (_opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
    dispatched.push(handler);
    return true;
  };
  const consumer = recorder();
  const reports: DrainReport[] = [];
  drainOnAbort({ onDrain: (report) => reports.push(report), ...options })(dispatch)(
    { origin: 'http://127.0.0.1:1', path: '/v1/stream', method: 'POST', ...opts },
    consumer.handler,
  );
  const below = dispatched[0];
  const connection = new FakeController();
  return { consumer, below, connection, reports, dispatched };
}

const CHUNKED: Headers = { 'content-type': 'text/event-stream', 'transfer-encoding': 'chunked' };

/** Starts the request and the response on the fake connection. */
function respond(run: ReturnType<typeof intercept>, headers: Headers = CHUNKED, statusMessage = 'OK', statusCode = 200): void {
  run.below.onRequestStart!(run.connection, {});
  run.below.onResponseStart!(run.connection, statusCode, headers, statusMessage);
  run.below.onResponseData!(run.connection, Buffer.from('data: [DONE]\n\n'));
}

describe('an abort after the response started', () => {
  it('is told to the consumer at once with its reason, and the body goes on being read', () => {
    const run = intercept({});
    respond(run);
    const reason = new Error('the consumer is done');
    run.consumer.controller().abort(reason);
    expect(run.consumer.errors).toEqual([reason]);
    expect(run.consumer.errors[0]).toBe(reason);
    expect(run.connection.calls).toEqual(['resume']);
    expect(run.consumer.controller().aborted).toBe(true);
    expect(run.consumer.controller().reason).toBe(reason);
    run.below.onResponseData!(run.connection, Buffer.from(': end of stream\n\n'));
    run.below.onResponseEnd!(run.connection, {});
    expect(run.consumer.events).toEqual(['request start', 'response start 200', 'data 14', 'error the consumer is done']);
    expect(run.connection.aborts).toEqual([]);
    expect(run.reports).toEqual([{ outcome: 'eof', bytes: 17, origin: 'http://127.0.0.1:1', path: '/v1/stream' }]);
  });

  it("a second abort (Node's fetch aborts twice on a body cancel) neither ends the drain nor reaches the consumer again", () => {
    const run = intercept({});
    respond(run);
    const first = new Error('first');
    run.consumer.controller().abort(first);
    run.consumer.controller().abort(new Error('second'));
    run.below.onResponseEnd!(run.connection, {});
    expect(run.consumer.errors).toEqual([first]);
    expect(run.connection.aborts).toEqual([]);
    expect(run.reports.map((report) => report.outcome)).toEqual(['eof']);
  });

  it('without a reason, the consumer gets an AbortError, the one undici would have made', () => {
    const run = intercept({});
    respond(run);
    (run.consumer.controller().abort as (reason?: Error) => void)();
    expect(run.consumer.errors.map((error) => [error.name, (error as Error & { code?: string }).code])).toEqual([['AbortError', 'UND_ERR_ABORTED']]);
  });

  it('past maxBytes it aborts the connection with the consumer\'s reason, and the error that follows is not told twice', () => {
    const run = intercept({ maxBytes: 100 });
    respond(run);
    const reason = new Error('cancelled');
    run.consumer.controller().abort(reason);
    run.below.onResponseData!(run.connection, Buffer.alloc(100));
    expect(run.connection.aborts).toEqual([]);
    run.below.onResponseData!(run.connection, Buffer.alloc(1));
    expect(run.connection.aborts).toEqual([reason]);
    run.below.onResponseError!(run.connection, reason);
    expect(run.consumer.errors).toEqual([reason]);
    expect(run.reports).toEqual([{ outcome: 'max-bytes', bytes: 101, origin: 'http://127.0.0.1:1', path: '/v1/stream' }]);
  });

  it('past timeoutMs it aborts the connection', async () => {
    const run = intercept({ timeoutMs: 20 });
    respond(run);
    const reason = new Error('cancelled');
    run.consumer.controller().abort(reason);
    await expect.poll(() => run.connection.aborts, { timeout: 10_000 }).toEqual([reason]);
    expect(run.reports.map((report) => report.outcome)).toEqual(['timeout']);
  });

  it('an error of the connection while draining (a reset) ends the drain, the consumer is not told again', () => {
    const run = intercept({});
    respond(run);
    run.consumer.controller().abort(new Error('cancelled'));
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    run.below.onResponseError!(run.connection, reset);
    expect(run.consumer.events.filter((event) => event.startsWith('error'))).toEqual(['error cancelled']);
    expect(run.reports).toEqual([{ outcome: 'error', bytes: 0, origin: 'http://127.0.0.1:1', path: '/v1/stream', error: reset }]);
  });

  it("the consumer's backpressure holds until it aborts; while draining its pause and resume are ignored", () => {
    const run = intercept({});
    respond(run);
    run.consumer.controller().pause();
    expect(run.consumer.controller().paused).toBe(true);
    run.consumer.controller().abort(new Error('cancelled'));
    run.consumer.controller().pause();
    run.consumer.controller().resume();
    expect(run.connection.calls).toEqual(['pause', 'resume']);
  });

  it('a report that throws is ignored', () => {
    const run = intercept({
      onDrain() {
        throw new Error('a broken logger');
      },
    });
    respond(run);
    run.consumer.controller().abort(new Error('cancelled'));
    expect(() => run.below.onResponseEnd!(run.connection, {})).not.toThrow();
  });
});

describe('what passes through untouched', () => {
  it('an abort before the response started aborts the connection; its error reaches the consumer once', () => {
    const run = intercept({});
    run.below.onRequestStart!(run.connection, {});
    const reason = new Error('gave up waiting');
    run.consumer.controller().abort(reason);
    expect(run.connection.aborts).toEqual([reason]);
    run.below.onResponseError!(run.connection, reason);
    expect(run.consumer.errors).toEqual([reason]);
    expect(run.reports).toEqual([]);
  });

  it('an abort after the body ended', () => {
    const run = intercept({});
    respond(run);
    run.below.onResponseEnd!(run.connection, {});
    run.consumer.controller().abort(new Error('late'));
    expect(run.connection.aborts.map((error) => error?.message)).toEqual(['late']);
    expect(run.consumer.events.at(-1)).toBe('end');
  });

  it.each([
    ['a Content-Length body whose rest is over maxBytes', { 'content-length': '1000' }, 'OK', 'POST'],
    ['a body delimited by the close of the connection', { 'content-type': 'text/event-stream' }, 'OK', 'POST'],
    ['Connection: close', { ...CHUNKED, connection: 'close' }, 'OK', 'POST'],
    ['HTTP/2 (undici gives no status message, and HTTP/2 has no Transfer-Encoding)', { 'content-length': '50' }, '', 'POST'],
    ['a HEAD response', { 'content-length': '50' }, 'OK', 'HEAD'],
  ])('%s: the abort reaches the connection at once', (_name, headers, statusMessage, method) => {
    const run = intercept({ maxBytes: 100 }, { method });
    respond(run, headers, statusMessage);
    const reason = new Error('cancelled');
    run.consumer.controller().abort(reason);
    expect(run.connection.aborts).toEqual([reason]);
    expect(run.consumer.errors).toEqual([]);
  });

  it('a Content-Length body whose rest fits maxBytes is drained', () => {
    const run = intercept({ maxBytes: 100 }, {});
    respond(run, { 'content-length': '114' });
    run.consumer.controller().abort(new Error('cancelled'));
    expect(run.connection.aborts).toEqual([]);
    run.below.onResponseData!(run.connection, Buffer.alloc(100));
    run.below.onResponseEnd!(run.connection, {});
    expect(run.reports.map((report) => [report.outcome, report.bytes])).toEqual([['eof', 100]]);
  });

  it('an informational response (1xx) does not start the response', () => {
    const run = intercept({});
    run.below.onRequestStart!(run.connection, {});
    run.below.onResponseStart!(run.connection, 103, { link: '</a.css>; rel=preload' }, 'Early Hints');
    run.consumer.controller().abort(new Error('cancelled'));
    expect(run.connection.aborts.length).toBe(1);
  });

  it.each([
    ['an upgrade', { upgrade: 'websocket' }, {}],
    ['CONNECT', { method: 'CONNECT' as const }, {}],
    ['maxBytes 0', {}, { maxBytes: 0 }],
    ['timeoutMs 0', {}, { timeoutMs: 0 }],
  ])('%s: the consumer\'s own handler is dispatched', (_name, opts, options) => {
    const run = intercept(options, opts);
    expect(run.dispatched).toEqual([run.consumer.handler]);
    expect(run.below).toBe(run.consumer.handler);
  });
});

describe("a handler in undici's older callback style (Node 20's and 22's fetch)", () => {
  it('gets onConnect, onHeaders with the raw headers, onData, and onError with the reason of its abort', () => {
    const events: string[] = [];
    let abort: ((reason?: Error) => void) | undefined;
    const legacy = {
      onConnect(fn: (reason?: Error) => void) {
        abort = fn;
        events.push('connect');
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[], _resume: () => void, statusText: string) {
        events.push(`headers ${statusCode} ${statusText} ${rawHeaders.map(String).join(' ')}`);
        return true;
      },
      onData(chunk: Buffer) {
        events.push(`data ${String(chunk).trim()}`);
        return false;
      },
      onComplete() {
        events.push('complete');
      },
      onError(error: Error) {
        events.push(`error ${error.message}`);
      },
    };
    const dispatched: Dispatcher.DispatchHandler[] = [];
    drainOnAbort()((_opts, handler) => {
      dispatched.push(handler);
      return true;
    })({ origin: 'http://127.0.0.1:1', path: '/', method: 'GET' }, legacy);
    const connection = new FakeController();
    const below = dispatched[0];
    below.onRequestStart!(connection, {});
    below.onResponseStart!(connection, 200, { 'transfer-encoding': 'chunked' }, 'OK');
    below.onResponseData!(connection, Buffer.from('data: [DONE]\n\n'));
    abort!(new Error('cancelled'));
    abort!(new Error('cancelled again'));
    below.onResponseEnd!(connection, {});
    expect(events).toEqual(['connect', 'headers 200 OK transfer-encoding chunked', 'data data: [DONE]', 'error cancelled']);
    expect(connection.calls).toEqual(['pause', 'resume']);
  });
});

describe('the options', () => {
  it.each([
    [{ maxBytes: -1 }, "drainOnAbort: 'maxBytes' must be a whole number from 0 to 9007199254740991, got -1"],
    [{ maxBytes: 1.5 }, "drainOnAbort: 'maxBytes' must be a whole number from 0 to 9007199254740991, got 1.5"],
    [{ timeoutMs: '1000' }, 'drainOnAbort: \'timeoutMs\' must be a whole number from 0 to 2147483647, got "1000"'],
    [{ timeoutMs: 2 ** 31 }, "drainOnAbort: 'timeoutMs' must be a whole number from 0 to 2147483647, got 2147483648"],
  ])('%j is refused', (options, message) => {
    expect(() => drainOnAbort(options as Parameters<typeof drainOnAbort>[0])).toThrow(new RangeError(message));
  });

  it('onDrain must be a function', () => {
    expect(() => drainOnAbort({ onDrain: 'log' } as unknown as Parameters<typeof drainOnAbort>[0])).toThrow(new TypeError("drainOnAbort: 'onDrain' must be a function"));
  });
});
