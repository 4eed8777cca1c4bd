import { readFileSync, readdirSync } from 'node:fs';

/**
 * The processes still running whose environment holds `marker` (a `NAME=value` a test gave the commands it started:
 * children inherit it), read from /proc; undefined where there is no /proc to read (not Linux).
 */
export function processesWithEnv(marker: string): { pid: number; command: string }[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  const found: { pid: number; command: string }[] = [];
  for (const entry of entries) {
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(marker)) continue;
      // A zombie (exited, not yet reaped by its parent) runs nothing: only its status is left.
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${entry}/status`, 'latin1'))) continue;
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim() });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
