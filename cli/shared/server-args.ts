// The flags that script the test server, shared by `drainguard serve` and `drainguard prove`: each
// one an option of drainguard/testing's stream server, and `--script FILE` for a JSON file of them
// (flags win over the file).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { streamServerOptionsError, type StreamServerOptions } from '../../testing/options.js';
import { errorCode } from './errors.js';

/** parseArgs options for the server's flags (`mode` only where the command takes one). */
export const SERVER_FLAGS = {
  format: { type: 'string' },
  events: { type: 'string' },
  'tail-delay-ms': { type: 'string' },
  'event-delay-ms': { type: 'string' },
  'trickle-interval-ms': { type: 'string' },
  'flood-bytes': { type: 'string' },
  'hold-max-ms': { type: 'string' },
  script: { type: 'string' },
} as const;

/** Flags whose value is a whole number, and the option each sets. */
const NUMBER_FLAGS: Record<string, keyof StreamServerOptions> = {
  events: 'events',
  'tail-delay-ms': 'tailDelayMs',
  'event-delay-ms': 'eventDelayMs',
  'trickle-interval-ms': 'trickleIntervalMs',
  'flood-bytes': 'floodBytes',
  'hold-max-ms': 'holdMaxMs',
  'keep-alive-timeout-ms': 'keepAliveTimeoutMs',
  port: 'port',
};

export type ServerFlagValues = Partial<Record<string, string | boolean | undefined>>;

/** The options of a JSON script file, or why it cannot be used. */
function readScript(file: string, cwd: string): { options: StreamServerOptions } | { error: string } {
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = errorCode(error);
    return { error: `cannot read --script ${file}: ${code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `--script ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const problem = streamServerOptionsError(parsed);
  return problem ? { error: `--script ${file}: ${problem}` } : { options: parsed as StreamServerOptions };
}

/** The stream server's options from the flags (and the --script file they name), or a one-line error. */
export function serverOptionsFromFlags(values: ServerFlagValues, cwd: string): { options: StreamServerOptions } | { error: string } {
  const fromFlags: Record<string, unknown> = {};
  for (const [flag, key] of Object.entries(NUMBER_FLAGS)) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    if (!/^\d+$/.test(raw)) return { error: `--${flag} takes a whole number, got '${raw}'.` };
    fromFlags[key] = Number(raw);
  }
  for (const flag of ['mode', 'format'] as const) {
    if (typeof values[flag] === 'string') fromFlags[flag] = values[flag];
  }
  const problem = streamServerOptionsError(fromFlags);
  if (problem) {
    const flagFor = (key: string): string => Object.entries(NUMBER_FLAGS).find(([, option]) => option === key)?.[0] ?? key;
    return { error: `${problem.replace(/^'(\w+)'/, (_, key: string) => `--${flagFor(key)}`)}.` };
  }
  const script = typeof values.script === 'string' ? readScript(values.script, cwd) : { options: {} };
  if ('error' in script) return { error: `${script.error}.` };
  return { options: { ...script.options, ...fromFlags } };
}
