// The handler drainOnAbort() puts between a consumer and the connection: it passes everything through until the
// consumer aborts after the response started; then it tells the consumer at once, as the abort would have, and
// reads the rest of the body in the background, discarding it, so that the connection goes back to the pool at
// its end. Past the byte or time bound it aborts for real: the socket is destroyed as it would have been.
import { errors, type Dispatcher } from 'undici';
import type { Duplex } from 'node:stream';
import { responseFraming } from './framing.js';
import type { Handler } from './legacy-handler.js';
import type { DrainBounds, DrainOutcome } from './options.js';

type Controller = Dispatcher.DispatchController;
type Headers = Record<string, string | string[] | undefined>;

/**
 * request: no response yet, an abort passes through; response: the body is being delivered; draining: the
 * consumer aborted and was told, the rest is being read; over: ended, errored or handed to an upgrade.
 */
type Phase = 'request' | 'response' | 'draining' | 'over';

export interface Dispatched {
  origin?: string | URL;
  path: string;
  method: string;
}

interface ConsumerView {
  lower(): Controller | undefined;
  aborted(): boolean;
  reason(): Error | null;
  draining(): boolean;
  abort(reason: Error | undefined): void;
}

/** The controller the consumer's handler holds: the connection's, but with the abort going through the drain. */
class ConsumerController implements Controller {
  readonly #view: ConsumerView;
  constructor(view: ConsumerView) {
    this.#view = view;
  }
  get aborted(): boolean {
    return this.#view.aborted() || (this.#view.lower()?.aborted ?? false);
  }
  get paused(): boolean {
    return this.#view.lower()?.paused ?? false;
  }
  get reason(): Error | null {
    return this.#view.reason() ?? this.#view.lower()?.reason ?? null;
  }
  get rawHeaders(): Controller['rawHeaders'] {
    return this.#view.lower()?.rawHeaders;
  }
  get rawTrailers(): Controller['rawTrailers'] {
    return this.#view.lower()?.rawTrailers;
  }
  abort(reason?: Error): void {
    this.#view.abort(reason);
  }
  // While draining, the consumer's backpressure no longer applies: the body goes nowhere.
  pause(): void {
    if (!this.#view.draining()) this.#view.lower()?.pause();
  }
  resume(): void {
    if (!this.#view.draining()) this.#view.lower()?.resume();
  }
}

export class DrainOnAbortHandler implements Handler {
  readonly #upper: Handler;
  readonly #bounds: DrainBounds;
  readonly #request: Dispatched;
  /** What the consumer's handler holds instead of the connection's controller. */
  readonly #controller: Controller;
  #lower: Controller | undefined;
  #phase: Phase = 'request';
  /** The body's rest can be read to its end on a reusable connection (set at the response's start). */
  #reusable = false;
  #contentLength: number | undefined;
  #received = 0;
  /** A drain was started: the consumer has been told of its abort, and hears nothing more. */
  #drainStarted = false;
  #drainedBytes = 0;
  #aborted = false;
  #reason: Error | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(upper: Handler, bounds: DrainBounds, request: Dispatched) {
    this.#upper = upper;
    this.#bounds = bounds;
    this.#request = request;
    this.#controller = new ConsumerController({
      lower: () => this.#lower,
      aborted: () => this.#aborted,
      reason: () => this.#reason,
      draining: () => this.#phase === 'draining',
      abort: (reason) => this.#abort(reason),
    });
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#lower = controller;
    // Called again when something below retries the request: start over, unless the consumer gave up already.
    if (!this.#aborted) {
      this.#phase = 'request';
      this.#received = 0;
    }
    this.#upper.onRequestStart?.(this.#controller, context);
  }

  onResponseStarted(): void {
    this.#upper.onResponseStarted?.();
  }

  onRequestUpgrade(_controller: Controller, statusCode: number, headers: Headers, socket: Duplex): void {
    this.#phase = 'over';
    this.#upper.onRequestUpgrade?.(this.#controller, statusCode, headers, socket);
  }

  onResponseStart(_controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    if (statusCode >= 200 && this.#phase === 'request') {
      this.#phase = 'response';
      const framing = responseFraming(this.#request.method, statusCode, headers, statusMessage);
      this.#reusable = framing.reusable;
      this.#contentLength = framing.contentLength;
    }
    this.#upper.onResponseStart?.(this.#controller, statusCode, headers, statusMessage);
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    if (this.#phase === 'draining') {
      this.#drainedBytes += chunk.length;
      if (this.#drainedBytes > this.#bounds.maxBytes) this.#giveUp('max-bytes');
      return;
    }
    if (this.#phase === 'over') return;
    this.#received += chunk.length;
    this.#upper.onResponseData?.(this.#controller, chunk);
  }

  onResponseEnd(_controller: Controller, trailers: Headers): void {
    if (this.#phase === 'draining') {
      this.#finish('eof');
      return;
    }
    if (this.#phase === 'over') return;
    this.#phase = 'over';
    this.#upper.onResponseEnd?.(this.#controller, trailers);
  }

  onResponseError(_controller: Controller, error: Error): void {
    if (this.#phase === 'draining') {
      this.#finish('error', error);
      return;
    }
    // The drain gave up and aborted: the consumer was told about its own abort already.
    if (this.#drainStarted) return;
    this.#phase = 'over';
    this.#upper.onResponseError?.(this.#controller, error);
  }

  /** The consumer's abort. Node's fetch calls it twice on a body cancel: only the first counts. */
  #abort(reason: Error | undefined): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const error = reason ?? new errors.RequestAbortedError();
    this.#reason = error;
    if (this.#phase === 'response' && this.#reusable && this.#withinBounds()) this.#drain(error);
    else this.#lower?.abort(error);
  }

  #withinBounds(): boolean {
    const { maxBytes, timeoutMs } = this.#bounds;
    if (maxBytes === 0 || timeoutMs === 0) return false;
    return this.#contentLength === undefined || this.#contentLength - this.#received <= maxBytes;
  }

  #drain(error: Error): void {
    this.#phase = 'draining';
    this.#drainStarted = true;
    this.#timer = setTimeout(() => this.#giveUp('timeout'), this.#bounds.timeoutMs);
    // The drain never keeps a process alive by itself.
    this.#timer.unref();
    try {
      // What the abort would have done: the consumer hears of it now, with its own reason.
      this.#upper.onResponseError?.(this.#controller, error);
    } finally {
      // The consumer may have paused the body (backpressure); its rest is read from now on.
      if (this.#phase === 'draining') this.#lower?.resume();
    }
  }

  /** A bound is reached: abort for real, which destroys the socket as the consumer's abort would have. */
  #giveUp(outcome: 'max-bytes' | 'timeout'): void {
    if (this.#phase !== 'draining') return;
    this.#finish(outcome);
    this.#lower?.abort(this.#reason ?? new errors.RequestAbortedError());
  }

  #finish(outcome: DrainOutcome, error?: Error): void {
    this.#phase = 'over';
    clearTimeout(this.#timer);
    const { onDrain } = this.#bounds;
    if (!onDrain) return;
    const { origin = '', path } = this.#request;
    try {
      onDrain({ outcome, bytes: this.#drainedBytes, origin: String(origin), path, ...(error ? { error } : {}) });
    } catch {
      // a report is not worth an error in undici's parser
    }
  }
}
