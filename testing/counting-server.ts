// A node:http server on 127.0.0.1 that counts the TCP connections it accepts, the requests it gets and
// the responses a client closed before their end, and serves those counts as JSON at
// /__drainguard/stats. The stream server (stream-server.ts) is one; a test can make its own peer by
// saying how to answer a request.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The path prefix of the server's own endpoints; requests under it are not counted. */
export const CONTROL_PREFIX = '/__drainguard/';
export const STATS_PATH = `${CONTROL_PREFIX}stats`;
export const RESET_PATH = `${CONTROL_PREFIX}reset`;

export interface ServerStats {
  /** TCP connections accepted, not counting those used only for /__drainguard/ requests. */
  connections: number;
  /** Requests received (not counting /__drainguard/ requests). */
  requests: number;
  /** Responses the client closed before the server ended them (the server's own resets and time limits excluded). */
  closedEarly: number;
  /** Responses the server wrote to their end. */
  finished: number;
}

export interface RequestRecord {
  /** 1-based request number. */
  id: number;
  /** 1-based number of the connection it came on, in the order the server accepted them. */
  socket: number;
  method: string;
  /** The request's path and query. */
  path: string;
  /** When the request arrived (performance.now() of the server's process, ms). */
  receivedAt: number;
  /** When the server wrote the terminal event, if it did. */
  terminalAt?: number;
  /** When the response was finished or closed. */
  endedAt?: number;
  /**
   * Bytes the server handed to the connection after the terminal event, until the response ended or was closed
   * (HTTP framing included). The client took them, or its and the kernel's buffers held them when it closed.
   */
  bytesAfterTerminal?: number;
  /** The server wrote the whole response. */
  finished: boolean;
  /** The client closed the response before the server ended it. */
  closedEarly: boolean;
}

export interface ResponseControl {
  /** The server ends this response itself (a reset, a time limit): it does not count as closed early. */
  expire(): void;
  /** Records the moment the terminal event was written (RequestRecord.terminalAt). */
  markTerminal(): void;
}

export interface CountingServerSetup {
  /** Answers one request (any method, any path outside /__drainguard/). */
  handle: (req: http.IncomingMessage, res: http.ServerResponse, control: ResponseControl) => void;
  /** Names the server in error messages (default `counting-server`). */
  name?: string;
  /** Appended to the origin to make `url` (default ''). */
  path?: string;
  /** http.Server keepAliveTimeout (default 5000 ms). */
  keepAliveTimeoutMs?: number;
  /** The port to listen on, on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Runs when close() starts (clear the peer's own timers). */
  onClose?: () => void;
}

export interface CountingServer {
  /** The origin (`http://127.0.0.1:PORT`) followed by the setup's path. */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** `GET` it for the counts as JSON (ServerStats); `POST` to `${origin}/__drainguard/reset` zeroes them. */
  statsUrl: string;
  stats(): ServerStats;
  /** A copy of the per-request records, in arrival order. */
  log(): RequestRecord[];
  /** Zeroes the counts and the log (connections already open stay open and are not counted again). */
  reset(): void;
  /** Resolves once predicate(stats) holds (checked on every connection, request and response end); rejects after timeoutMs (default 5000). */
  waitFor(predicate: (stats: ServerStats) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops listening and destroys every connection, open responses included. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

interface SocketState {
  id: number;
  /** The reset() generation it was accepted in: only then does it count. */
  epoch: number;
  /** 'control' while it carried only /__drainguard/ requests. */
  use: 'none' | 'control' | 'counted';
}

export async function startCountingServer(setup: CountingServerSetup): Promise<CountingServer> {
  const { name = 'counting-server', path = '', keepAliveTimeoutMs = 5000, port: wantedPort = 0, handle, onClose } = setup;
  let accepted = 0;
  let connections = 0;
  let epoch = 0;
  let closing = false;
  let log: RequestRecord[] = [];
  const sockets = new Set<Socket>();
  const socketStates = new WeakMap<Socket, SocketState>();
  let waiters: (() => void)[] = [];
  const notify = (): void => {
    const ready = waiters;
    waiters = [];
    for (const waiter of ready) waiter();
  };

  const stats = (): ServerStats => ({
    connections,
    requests: log.length,
    closedEarly: log.filter((r) => r.closedEarly).length,
    finished: log.filter((r) => r.finished).length,
  });
  const reset = (): void => {
    epoch++;
    connections = 0;
    log = [];
  };

  /** Marks what a socket was used for; a socket used only for control requests is not a counted connection. */
  const use = (socket: Socket, kind: 'control' | 'counted'): number => {
    const state = socketStates.get(socket);
    if (!state) return 0;
    const current = state.epoch === epoch;
    if (kind === 'control' && state.use === 'none') {
      state.use = 'control';
      if (current) connections--;
    } else if (kind === 'counted' && state.use !== 'counted') {
      if (state.use === 'control' && current) connections++;
      state.use = 'counted';
    }
    return state.id;
  };

  const control = (req: http.IncomingMessage, res: http.ServerResponse, pathname: string): void => {
    use(req.socket, 'control');
    req.resume();
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(`${JSON.stringify(body)}\n`);
    };
    if (pathname === STATS_PATH && (req.method === 'GET' || req.method === 'HEAD')) json(200, stats());
    else if (pathname === RESET_PATH && req.method === 'POST') {
      reset();
      json(200, stats());
    } else json(404, { error: `${name}: ${req.method} ${pathname} is not an endpoint: use GET ${STATS_PATH} or POST ${RESET_PATH}` });
  };

  const server = http.createServer((req, res) => {
    const target = req.url ?? '/';
    const pathname = target.split('?')[0];
    if (pathname.startsWith(CONTROL_PREFIX)) {
      control(req, res, pathname);
      return;
    }
    const record: RequestRecord = {
      id: log.length + 1,
      socket: use(req.socket, 'counted'),
      method: req.method ?? 'GET',
      path: target,
      receivedAt: performance.now(),
      finished: false,
      closedEarly: false,
    };
    log.push(record);
    notify();
    let expired = false;
    let sentAtTerminal: number | undefined;
    const sentSoFar = (): number => Math.max(0, (req.socket.bytesWritten ?? 0) - req.socket.writableLength);
    const ended = (): void => {
      record.endedAt ??= performance.now();
      if (sentAtTerminal !== undefined) record.bytesAfterTerminal ??= Math.max(0, sentSoFar() - sentAtTerminal);
    };
    res.on('finish', () => {
      record.finished = true;
      ended();
      notify();
    });
    res.on('close', () => {
      if (!res.writableFinished && !closing && !expired) record.closedEarly = true;
      ended();
      notify();
    });
    handle(req, res, {
      expire() {
        expired = true;
      },
      markTerminal() {
        record.terminalAt = performance.now();
        // Everything written so far, the terminal event included, whether or not it has left the process yet.
        sentAtTerminal = req.socket.bytesWritten ?? 0;
      },
    });
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', (socket: Socket) => {
    accepted++;
    connections++;
    socketStates.set(socket, { id: accepted, epoch, use: 'none' });
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    notify();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wantedPort, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    onClose?.();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
    notify();
  };

  return {
    url: `${origin}${path}`,
    origin,
    port,
    statsUrl: `${origin}${STATS_PATH}`,
    stats,
    log: () => log.map((record) => ({ ...record })),
    reset,
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`${name}: condition not met within ${timeoutMs} ms`)), timeoutMs);
        const check = (): void => {
          if (predicate(stats())) {
            clearTimeout(deadline);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
