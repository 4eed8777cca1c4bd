export type ProbeMode = 'end' | 'hold' | 'reset';
export interface ProbeRecord {
  id: number;
  socket: number;
  method: string;
  finished: boolean;
  closedByClient: boolean;
  mode: ProbeMode;
  /** Date.now() when `data: [DONE]` was written; 0 before. */
  terminalAt: number;
  /** Date.now() when the server ended the body; 0 if it did not. */
  endedAt: number;
  /** Date.now() when the response closed before its end (the client let go or the server reset); 0 if not. */
  closedAt: number;
}
export interface ProbeServer {
  /** http://127.0.0.1:PORT (no trailing slash) */
  url: string;
  setMode(mode: ProbeMode): void;
  connections(): number;
  log(): ProbeRecord[];
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}
export function startProbeServer(options?: { events?: number; holdMs?: number; tailDelayMs?: number }): Promise<ProbeServer>;
