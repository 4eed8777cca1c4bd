import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CountingServer } from './sse-server.d.mts';

export interface ResponseControl {
  /** The server ends this response itself (e.g. a hang past its bound): it does not count as closed by the client. */
  expire(): void;
}

export interface CountingServerSetup {
  /** Names the server in error messages (`sse-server`, `mcp-server`). */
  name: string;
  /** Path of `url` (default `/`). */
  path?: string;
  /** http.Server keepAliveTimeout (default 5000 ms). */
  keepAliveTimeoutMs?: number;
  /** Answers one request. */
  handle(req: IncomingMessage, res: ServerResponse, control: ResponseControl): void;
  /** Runs when close() starts (clear the peer's own timers). */
  onClose?(): void;
}

export function startCountingServer(setup: CountingServerSetup): Promise<CountingServer>;
