import type { CountingServerSetup as KitSetup, CountingServer as KitServer } from '../../testing/index.js';
import type { CountingServer } from './sse-server.d.mts';

export type { ResponseControl } from '../../testing/index.js';

export interface CountingServerSetup extends KitSetup {
  /** Path of `url` (default `/`). */
  path?: string;
}

/** drainguard/testing's startCountingServer (url ending in `/` by default) with the accessors of CountingServer. */
export function startCountingServer(setup: CountingServerSetup): Promise<CountingServer>;

/** The accessors of CountingServer over a drainguard/testing server. */
export function withSupportNames(server: KitServer): CountingServer;
