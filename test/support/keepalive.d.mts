import type { SseServerOptions } from './sse-server.mjs';
import type { McpPeerOptions } from './mcp-server.mjs';

/** A client call: `callOnce(url, init?, ...rest)` resolving to the messages it collected. */
export type ClientFn = (url: string, ...args: never[]) => Promise<unknown>;

export interface RunOptions {
  /** Passed after the url on every call (e.g. [{ dispatcher }, 200]). */
  args?: unknown[];
  /** The export to call when `client` is a module (default 'callOnce'). */
  exportName?: string;
  /** Bound on each call (default 10000 ms); a call that does not settle rejects the run. */
  callTimeoutMs?: number;
  /** Pause after each call, not timed (default 0): a caller that does some work between calls. */
  pauseMs?: number;
}

export interface RunResult {
  /** What each call resolved to, in order. */
  results: unknown[];
  latenciesMs: number[];
}

export interface MeasureOptions {
  /** Sequential calls (default 20). */
  calls?: number;
  /** 'node': the counting SSE server (default); 'mcp': the MCP SDK peer. */
  peer?: 'node' | 'mcp';
  /** Options of the server started for this measurement. */
  server?: SseServerOptions & McpPeerOptions;
  /** Put the delay proxy in front with this RTT (no proxy when undefined and tls is false). */
  rttMs?: number;
  /** TLS on the proxy's client side (skipped with tlsSkipReason when openssl is missing). */
  tls?: boolean;
  /** Passed after the url; args[0] is fetch's init, into which a fresh `dispatcher` is merged. */
  args?: unknown[];
  exportName?: string;
  callTimeoutMs?: number;
  /** Pause after each call, not timed (default 0): a caller that does some work between calls. */
  pauseMs?: number;
  /** Wait after the last call before counting (default 100 ms, plus 2 RTT). */
  settleMs?: number;
}

export interface Measurement {
  /** The URL the client called (the proxy's when there is one). */
  url: string;
  /** TCP connections the server accepted. */
  connections: number;
  requests: number;
  /** Each response body as undici handed it to fetch (empty where fetch's Agent is not reachable, or the client does not use fetch). */
  bodies: import('./undici-agent.d.mts').BodyCount[];
  /** Responses the client closed before the server finished them. */
  closedByClient: number;
  results: unknown[];
  latenciesMs: number[];
  tls: boolean;
  tlsSkipReason?: string;
}

export function loadClient(client: string | URL | ClientFn, exportName?: string): Promise<ClientFn>;
export function percentile(values: number[], p: number): number;
export function runSequentialCalls(client: string | URL | ClientFn, url: string, n: number, options?: RunOptions): Promise<RunResult>;
export function measureKeepAlive(client: string | URL | ClientFn, options?: MeasureOptions): Promise<Measurement>;
