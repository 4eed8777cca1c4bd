// A handler in undici's older callback style (onConnect, onHeaders, onData, onComplete, onError), the style of
// the undici 6 that Node 20 and Node 22 bundle for their fetch, seen through the newer controller style
// (onRequestStart, onResponseStart, ...). undici 7's `compose()` already wraps every handler it is given this
// way before an interceptor sees it; this covers an interceptor called directly. It mirrors undici's own
// lib/handler/wrap-handler.js, which undici does not export.
import type { Dispatcher } from 'undici';
import type { Duplex } from 'node:stream';

type Controller = Dispatcher.DispatchController;
type Headers = Record<string, string | string[] | undefined>;

/** The older callback style. */
export interface LegacyHandler {
  onConnect?(abort: (reason?: Error) => void, context?: unknown): void;
  onResponseStarted?(): void;
  onHeaders?(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean | undefined;
  onData?(chunk: Buffer): boolean | undefined;
  onComplete?(rawTrailers: Buffer[]): void;
  onError?(error: Error): void;
  onUpgrade?(statusCode: number, rawHeaders: Buffer[], socket: Duplex): void;
}

/** The newer controller style, with the timing callback undici still gives a handler of that style. */
export interface Handler extends Dispatcher.DispatchHandler {
  onResponseStarted?(): void;
}

function rawPairs(headers: Headers): Buffer[] {
  const raw: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) raw.push(Buffer.from(name, 'latin1'), Buffer.from(one, 'latin1'));
  }
  return raw;
}

/** The raw header list undici kept on the controller (name and value pairs as received), else one made from the object. */
function rawHeaders(controller: Controller, headers: Headers, kept: 'rawHeaders' | 'rawTrailers'): Buffer[] {
  const raw = controller[kept];
  if (Array.isArray(raw) && raw.every((item) => Buffer.isBuffer(item))) return raw;
  return rawPairs(headers);
}

export function isControllerStyle(handler: object): handler is Handler {
  return typeof (handler as Handler).onRequestStart === 'function';
}

/** `handler` in the controller style: itself if it is already, else wrapped. */
export function controllerStyle(handler: Handler | LegacyHandler): Handler {
  if (isControllerStyle(handler)) return handler;
  const legacy = handler;
  return {
    onRequestStart(controller, context) {
      // An abort without a reason stays without one: undici's controllers make their own RequestAbortedError.
      legacy.onConnect?.((reason) => controller.abort(reason as Error), context);
    },
    onResponseStarted() {
      legacy.onResponseStarted?.();
    },
    onRequestUpgrade(controller, statusCode, headers, socket) {
      legacy.onUpgrade?.(statusCode, rawHeaders(controller, headers, 'rawHeaders'), socket);
    },
    onResponseStart(controller, statusCode, headers, statusMessage) {
      if (legacy.onHeaders?.(statusCode, rawHeaders(controller, headers, 'rawHeaders'), () => controller.resume(), statusMessage ?? '') === false) {
        controller.pause();
      }
    },
    onResponseData(controller, chunk) {
      if (legacy.onData?.(chunk) === false) controller.pause();
    },
    onResponseEnd(controller, trailers) {
      legacy.onComplete?.(rawHeaders(controller, trailers, 'rawTrailers'));
    },
    onResponseError(_controller, error) {
      if (!legacy.onError) throw error;
      legacy.onError(error);
    },
  };
}
