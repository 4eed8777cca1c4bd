import type {
  AfterTerminal,
  BodyFormat,
  CountingServer as KitServer,
  RequestRecord as KitRecord,
  StreamServerOptions,
} from '../../testing/index.js';

export type StreamFormat = BodyFormat;

export interface SseServerOptions extends Omit<StreamServerOptions, 'mode' | 'holdMaxMs'> {
  /** Delay between the terminal event and the end or reset (default 5 ms here). */
  tailDelayMs?: number;
  /** The kit's modes, and 'hang' for its 'silent' (the body is held open after the terminal event). */
  mode?: AfterTerminal | 'hang';
  /** Safety bound for the held-open modes: the server destroys the response after this long (default 120 s). */
  hangMaxMs?: number;
}

export interface RequestRecord extends KitRecord {
  /** The connection/response was closed before the server finished the response (not by close()): the kit's closedEarly. */
  closedByClient: boolean;
}

/** What every counting server of test/support exposes. */
export interface CountingServer extends Omit<KitServer, 'log'> {
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
}

export type SseServer = CountingServer;

export function startSseServer(options?: SseServerOptions): Promise<SseServer>;

/** The messages a client collects for `events` events of `format`, the terminal event excluded. */
export function expectedMessages(events?: number, format?: StreamFormat, progressToken?: string | number): unknown[];
