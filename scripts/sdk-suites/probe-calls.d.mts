export const BODY_MODES: readonly ('end' | 'silent' | 'trickle' | 'flood' | 'endless' | 'reset')[];
export const PACED_PAUSE_MS: number;
export interface Peer {
  name: string;
  events: unknown[];
  terminal?: unknown;
}
export interface CallContext {
  urls: Record<string, string>;
  fetch: typeof fetch | undefined;
}
export interface Probe {
  peers: Peer[];
  callers: ('native' | 'node-fetch')[];
  expected: string[];
  call(sdk: unknown, context: CallContext, onMessage: (text: string) => void): Promise<void>;
}
export const PROBES: Record<string, Probe>;
