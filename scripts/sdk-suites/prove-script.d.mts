import type { Probe } from './probe-calls.mjs';
export function proveScript(probe: Probe): { format: 'sse'; events: unknown[]; terminal?: unknown } | null;
