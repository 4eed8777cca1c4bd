// drainguard/undici: the drain without a source change. An undici interceptor that turns a consumer's abort after
// the response started (a body cancel, a reader cancel, a `break` out of `for await`, the request's AbortSignal)
// into a bounded background read to EOF, so the HTTP/1.1 connection goes back to the pool; and an installer that
// puts it under Node's built-in fetch (docs/transport.md). It imports nothing of the rest of drainguard.
import { Agent, setGlobalDispatcher, type Dispatcher } from 'undici';
import { DrainOnAbortHandler } from './drain-handler.js';
import { controllerStyle } from './legacy-handler.js';
import { drainBounds, type DrainOnAbortOptions } from './options.js';

export { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, type DrainOnAbortOptions, type DrainOutcome, type DrainReport } from './options.js';

/**
 * An undici interceptor: `new Agent().compose(drainOnAbort())`. Aborts before the response started, upgrades,
 * CONNECT, HTTP/2 and bodies that cannot leave a reusable connection behind pass through untouched.
 */
export function drainOnAbort(options: DrainOnAbortOptions = {}): Dispatcher.DispatcherComposeInterceptor {
  const bounds = drainBounds(options);
  return (dispatch) =>
    function drainOnAbortDispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      if (opts.upgrade || opts.method === 'CONNECT' || bounds.maxBytes === 0 || bounds.timeoutMs === 0) return dispatch(opts, handler);
      const upper = controllerStyle(handler);
      return dispatch(opts, new DrainOnAbortHandler(upper, bounds, { origin: opts.origin, path: opts.path, method: opts.method }));
    };
}

export interface InstallDrainOnAbortOptions extends DrainOnAbortOptions {
  /** Options of the undici `Agent` the interceptor is composed on (timeouts, TLS, `connections`, ...). */
  agent?: Agent.Options;
}

/**
 * Makes `new Agent(options.agent).compose(drainOnAbort(options))` the global dispatcher, the one Node's built-in
 * `fetch` (Node 20.19+, 22) and undici's own `fetch`/`request` use when not given one; returns it (close it to
 * release its connections). Each call installs a new one: call it once, early.
 */
export function installDrainOnAbort(options: InstallDrainOnAbortOptions = {}): Dispatcher {
  const { agent, ...drain } = options;
  const interceptor = drainOnAbort(drain);
  const dispatcher = new Agent(agent).compose(interceptor);
  setGlobalDispatcher(dispatcher);
  return dispatcher;
}
