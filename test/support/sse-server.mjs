// test/support's SSE server is drainguard/testing's stream server (testing/stream-server.ts, built into
// dist/): a real node:http server on 127.0.0.1 that streams SSE, NDJSON or JSON-RPC-over-SSE bodies
// with a terminal event and counts the TCP connections it accepts. Plain ESM with a .d.mts beside it,
// so that both vitest (TypeScript) and `node bench/keepalive.mjs` (no loader) can import it.
// Mode 'hang' is the kit's 'silent' (`hangMaxMs` its `holdMaxMs`); `url` ends in `/`; the tail delay is
// 5 ms unless given (the kit's default is 20 ms).
import { expectedMessages, startStreamServer } from '../../dist/testing.js';
import { withSupportNames } from './counting-server.mjs';

export { expectedMessages };

/**
 * @param {import('./sse-server.d.mts').SseServerOptions} [options]
 * @returns {Promise<import('./sse-server.d.mts').SseServer>}
 */
export async function startSseServer(options = {}) {
  const { mode, hangMaxMs, tailDelayMs = 5, ...rest } = options;
  const server = await startStreamServer({ ...rest, tailDelayMs, mode: mode === 'hang' ? 'silent' : mode, holdMaxMs: hangMaxMs });
  return withSupportNames({ ...server, url: `${server.url}/` });
}
