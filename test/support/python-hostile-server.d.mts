import type { CountingServer } from './sse-server.d.mts';

export const HOSTILE_MODES: readonly ['end', 'silent', 'trickle', 'flood', 'comments', 'line', 'hold', 'reset'];
export type HostileMode = (typeof HOSTILE_MODES)[number];

export interface HostileServer extends CountingServer {
  /** Bytes written after the terminal event, over all responses. */
  bytesAfterTerminal(): number;
}

export function startHostileServer(options: { mode: HostileMode; events?: number; holdMs?: number }): Promise<HostileServer>;
