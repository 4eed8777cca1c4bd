import { parseCommandArgs } from '../shared/args.js';
import { MODES, type AfterTerminal, type StreamServerOptions } from '../../testing/options.js';
import { SERVER_FLAGS, serverOptionsFromFlags } from '../shared/server-args.js';

export const DEFAULT_CALLS = 10;
export const DEFAULT_TIMEOUT_MS = 20_000;

export interface ProveArgs {
  /** The user's command and its arguments (after `--`). */
  command: string[];
  calls: number;
  modes: AfterTerminal[];
  /** Bound on each run of the command, in ms. */
  timeoutMs: number;
  output: 'text' | 'markdown' | 'json';
  server: StreamServerOptions;
  /** Run each mode twice: as it is, then with drainguard/undici installed (`node --import`, through NODE_OPTIONS). */
  transport: boolean;
  help: boolean;
  version: boolean;
}

export type ParsedProveArgs = { ok: true; args: ProveArgs } | { ok: false; error: string };

const wholeNumber = (raw: string, flag: string, min: number, max: number): number | string =>
  /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : `${flag} takes a whole number from ${min} to ${max}, got '${raw}'.`;

/** Parses `drainguard prove [options] -- <command> [args...]`. */
export function parseProveArgs(argv: readonly string[], cwd: string): ParsedProveArgs {
  const dashes = argv.indexOf('--');
  const own = dashes < 0 ? [...argv] : argv.slice(0, dashes);
  const command = dashes < 0 ? [] : argv.slice(dashes + 1);
  const parsed = parseCommandArgs(own, {
    options: {
      ...SERVER_FLAGS,
      calls: { type: 'string' },
      modes: { type: 'string' },
      'timeout-ms': { type: 'string' },
      markdown: { type: 'boolean' },
      json: { type: 'boolean' },
      transport: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (!parsed.ok) return parsed;
  if (parsed.positionals.length > 0) return { ok: false, error: `unexpected argument '${parsed.positionals[0]}': put the command after '--'` };
  const { values } = parsed;
  const flags = { server: {}, calls: DEFAULT_CALLS, modes: [...MODES], timeoutMs: DEFAULT_TIMEOUT_MS, output: 'text' as const, transport: false, command };
  if (values.help || values.version) return { ok: true, args: { ...flags, help: values.help ?? false, version: values.version ?? false } };
  if (command.length === 0) return { ok: false, error: "no command to run: give it after '--' (drainguard prove -- node my-calls.mjs)." };
  const calls = wholeNumber(values.calls ?? String(DEFAULT_CALLS), '--calls', 1, 10_000);
  if (typeof calls === 'string') return { ok: false, error: calls };
  const timeoutMs = wholeNumber(values['timeout-ms'] ?? String(DEFAULT_TIMEOUT_MS), '--timeout-ms', 1, 3_600_000);
  if (typeof timeoutMs === 'string') return { ok: false, error: timeoutMs };
  const modesText = values.modes ?? MODES.join(',');
  const named = modesText.split(',').map((mode) => mode.trim());
  const modes = named.filter(isMode);
  if (modes.length !== named.length) {
    return { ok: false, error: `--modes takes a comma-separated list of ${MODES.join(', ')}, got '${modesText}'.` };
  }
  if (values.markdown && values.json) return { ok: false, error: '--markdown and --json contradict each other.' };
  const server = serverOptionsFromFlags(values, cwd);
  if ('error' in server) return { ok: false, error: server.error };
  if (server.options.mode !== undefined) return { ok: false, error: `prove runs the command once per mode: choose them with --modes, not the script's 'mode'.` };
  return {
    ok: true,
    args: {
      ...flags,
      calls,
      timeoutMs,
      modes: [...new Set(modes)],
      output: values.markdown ? 'markdown' : values.json ? 'json' : 'text',
      transport: values.transport ?? false,
      // The server holds a hostile body longer than the command may run, so the command sees no end.
      server: { holdMaxMs: timeoutMs + 5000, ...server.options },
      help: false,
      version: false,
    },
  };
}

function isMode(mode: string): mode is AfterTerminal {
  return MODES.some((known) => known === mode);
}
