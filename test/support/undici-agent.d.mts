/** The part of undici's Dispatcher the helpers use; pass it as `fetch(url, { dispatcher })`. */
export interface Dispatcher {
  dispatch(...args: unknown[]): boolean;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** fetch's bundled undici Agent class (reached through Node's global dispatcher), or why it is not reachable. */
export function undiciAgentClass(): Promise<{ Agent: new (options?: object) => Dispatcher } | { error: string }>;

/** One response body as the client received it: all its bytes, and those after the terminal event (null: none seen). */
export interface BodyCount {
  bytes: number;
  afterTerminal: number | null;
}

/**
 * A fresh Agent (own pool) trusting `ca` when given; undefined when the class is not reachable. With `countBytes`, each
 * response's body is counted into that list as undici hands it to fetch.
 */
export function createDispatcher(options?: { ca?: string; countBytes?: BodyCount[] }): Promise<Dispatcher | undefined>;
