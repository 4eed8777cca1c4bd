export type StreamFormat = 'sse' | 'ndjson' | 'jsonrpc';

export interface SseServerOptions {
  /** `data:` events before the terminal event (default 3). */
  events?: number;
  /** 'end': end the response after the tail (default); 'hang': never end it after the terminal event; 'reset': reset the connection `tailDelayMs` after the terminal event; 'flood': keep writing events after the terminal event, never ending. */
  mode?: 'end' | 'hang' | 'reset' | 'flood';
  /** 'sse' (`data: [DONE]` terminal), 'ndjson' (`{"type":"done"}` terminal), 'jsonrpc' (SSE, JSON-RPC `result` terminal). */
  format?: StreamFormat;
  /** Bytes written after the terminal event before the end (default an SSE comment / a blank NDJSON line). */
  tail?: string;
  /** Delay between the terminal event and the tail + end, in mode 'end' (default 5 ms). */
  tailDelayMs?: number;
  /** Delay between events (default 0: all written at once). */
  eventDelayMs?: number;
  /** http.Server keepAliveTimeout (default 5000 ms). */
  keepAliveTimeoutMs?: number;
  /** Safety bound for modes 'hang' and 'flood': the server destroys the response after this long (default 120 s). */
  hangMaxMs?: number;
}

export interface RequestRecord {
  /** 1-based request number. */
  id: number;
  /** 1-based number of the connection it came on. */
  socket: number;
  method: string;
  /** The server wrote the whole response. */
  finished: boolean;
  /** The connection/response was closed before the server finished the response (not by close()). */
  closedByClient: boolean;
}

/** What every counting server of test/support exposes. */
export interface CountingServer {
  /** http://127.0.0.1:PORT/ (the MCP peer: http://127.0.0.1:PORT/mcp). */
  url: string;
  port: number;
  /** TCP connections accepted (`connection` events). */
  connections(): number;
  /** Requests received. */
  requests(): number;
  /** Responses the client closed before the server finished them. */
  closedByClient(): number;
  /** Responses the server finished. */
  finished(): number;
  /** A copy of the per-request records. */
  log(): RequestRecord[];
  /** Zero the counters (connections already open stay open). */
  reset(): void;
  /** Resolves once predicate() is true (checked after each response finish/close); rejects after timeoutMs (default 5000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** Stop listening and destroy every connection (hanging responses included). */
  close(): Promise<void>;
}

export type SseServer = CountingServer;

export function startSseServer(options?: SseServerOptions): Promise<SseServer>;

/** The messages a client collects for `events` events of `format`, the terminal event excluded. */
export function expectedMessages(events?: number, format?: StreamFormat, progressToken?: string | number): unknown[];
