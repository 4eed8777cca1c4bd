// drainguard/testing: a streaming test server that counts connections, and the checks a drain fix
// needs in a maintainer's own CI (docs/testing.md). Node built-ins only.
export { startStreamServer, type StreamServer } from './stream-server.js';
export {
  startCountingServer,
  STATS_PATH,
  RESET_PATH,
  type CountingServer,
  type CountingServerSetup,
  type RequestRecord,
  type ResponseControl,
  type ServerStats,
} from './counting-server.js';
export { HOSTILE_MODES, MODES, type AfterTerminal, type HostileMode, type StreamServerOptions } from './options.js';
export { expectedMessages, type BodyFormat } from './frames.js';
export {
  expectConnectionReuse,
  expectPromptReturn,
  type Call,
  type PromptReturn,
  type PromptReturnOptions,
  type ReuseOptions,
  type ReuseReport,
} from './assertions.js';
