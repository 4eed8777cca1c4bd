import { parseCommandArgs } from '../shared/args.js';
import type { StreamServerOptions } from '../../testing/options.js';
import { SERVER_FLAGS, serverOptionsFromFlags } from '../shared/server-args.js';

export interface ServeArgs {
  server: StreamServerOptions;
  help: boolean;
  version: boolean;
}

export type ParsedServeArgs = { ok: true; args: ServeArgs } | { ok: false; error: string };

/** Parses `drainguard serve` arguments (strict: unknown options and positionals are errors). */
export function parseServeArgs(argv: readonly string[], cwd: string): ParsedServeArgs {
  const parsed = parseCommandArgs(argv, {
    options: {
      ...SERVER_FLAGS,
      mode: { type: 'string' },
      port: { type: 'string' },
      'keep-alive-timeout-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (!parsed.ok) return parsed;
  if (parsed.positionals.length > 0) return { ok: false, error: `serve takes no paths or commands, got '${parsed.positionals[0]}'` };
  const { values } = parsed;
  if (values.help || values.version) return { ok: true, args: { server: {}, help: values.help ?? false, version: values.version ?? false } };
  const server = serverOptionsFromFlags(values, cwd);
  if ('error' in server) return { ok: false, error: server.error };
  return { ok: true, args: { server: server.options, help: false, version: false } };
}
