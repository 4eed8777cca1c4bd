/** The part of undici's Dispatcher the helpers use; pass it as `fetch(url, { dispatcher })`. */
export interface Dispatcher {
  dispatch(...args: unknown[]): boolean;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** fetch's bundled undici Agent class (reached through Node's global dispatcher), or why it is not reachable. */
export function undiciAgentClass(): Promise<{ Agent: new (options?: object) => Dispatcher } | { error: string }>;

/** A fresh Agent (own pool) trusting `ca` when given; undefined when the class is not reachable. */
export function createDispatcher(options?: { ca?: string }): Promise<Dispatcher | undefined>;
