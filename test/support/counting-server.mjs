// test/support's counting server is drainguard/testing's (testing/counting-server.ts, built into dist/),
// under the accessor names the tests here were written with (closedByClient is its closedEarly).
import { startCountingServer as startKitServer } from '../../dist/testing.js';

/**
 * @param {import('./counting-server.d.mts').CountingServerSetup} setup
 * @returns {Promise<import('./sse-server.d.mts').CountingServer>}
 */
export async function startCountingServer(setup) {
  return withSupportNames(await startKitServer({ path: '/', ...setup }));
}

/**
 * @param {import('../../testing/index.js').CountingServer} server
 * @returns {import('./sse-server.d.mts').CountingServer}
 */
export function withSupportNames(server) {
  return {
    ...server,
    connections: () => server.stats().connections,
    requests: () => server.stats().requests,
    closedByClient: () => server.stats().closedEarly,
    finished: () => server.stats().finished,
    log: () => server.log().map((record) => ({ ...record, closedByClient: record.closedEarly })),
  };
}
