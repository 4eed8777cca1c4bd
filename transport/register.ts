// drainguard/undici/register: `node --import drainguard/undici/register app.mjs` (or in NODE_OPTIONS) installs
// the drain-on-abort dispatcher before the application runs, so every fetch of the process uses it.
// DRAINGUARD_DRAIN_MAX_BYTES and DRAINGUARD_DRAIN_TIMEOUT_MS set its bounds (whole numbers; 0 turns it off).
import { installDrainOnAbort, type DrainOnAbortOptions } from './undici.js';

function bound(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new RangeError(`drainguard/undici/register: ${name} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw.trim());
}

const options: DrainOnAbortOptions = {};
const maxBytes = bound('DRAINGUARD_DRAIN_MAX_BYTES');
const timeoutMs = bound('DRAINGUARD_DRAIN_TIMEOUT_MS');
if (maxBytes !== undefined) options.maxBytes = maxBytes;
if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
installDrainOnAbort(options);
