// The part every peer of test/support shares: a node:http server on 127.0.0.1 that counts the TCP
// connections it accepts (`connection` events) and records each request, behind the CountingServer
// interface of sse-server.d.mts. A peer only says how to answer a request.
import http from 'node:http';

/**
 * @param {import('./counting-server.d.mts').CountingServerSetup} setup
 * @returns {Promise<import('./sse-server.d.mts').CountingServer>}
 */
export async function startCountingServer(setup) {
  const { name, path = '/', keepAliveTimeoutMs = 5000, handle, onClose } = setup;
  let connections = 0;
  let closing = false;
  /** @type {import('./sse-server.d.mts').RequestRecord[]} */
  let log = [];
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  /** @type {WeakMap<import('node:net').Socket, number>} */
  const socketIds = new WeakMap();
  /** @type {Array<() => void>} */
  let waiters = [];
  const notify = () => {
    const ws = waiters;
    waiters = [];
    for (const w of ws) w();
  };

  const server = http.createServer((req, res) => {
    const record = {
      id: log.length + 1,
      socket: socketIds.get(req.socket) ?? 0,
      method: req.method ?? 'GET',
      finished: false,
      closedByClient: false,
    };
    log.push(record);
    // A response the server itself gives up on (a hang past its bound) is not closed by the client.
    let expired = false;
    res.on('finish', () => {
      record.finished = true;
      notify();
    });
    res.on('close', () => {
      if (!res.writableFinished && !closing && !expired) record.closedByClient = true;
      notify();
    });
    handle(req, res, {
      expire() {
        expired = true;
      },
    });
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', (socket) => {
    connections++;
    socketIds.set(socket, connections);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());

  return {
    url: `http://127.0.0.1:${address.port}${path}`,
    port: address.port,
    connections: () => connections,
    requests: () => log.length,
    closedByClient: () => log.filter((r) => r.closedByClient).length,
    finished: () => log.filter((r) => r.finished).length,
    log: () => log.map((r) => ({ ...r })),
    reset() {
      connections = 0;
      log = [];
    },
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`${name}: condition not met within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (predicate()) {
            clearTimeout(deadline);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    async close() {
      closing = true;
      onClose?.();
      const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
      for (const s of sockets) s.destroy();
      await closed;
      notify();
    },
  };
}
