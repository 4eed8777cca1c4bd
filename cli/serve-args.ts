import { parseArgs } from 'node:util';
import type { StreamServerOptions } from '../testing/options.js';
import { SERVER_FLAGS, serverOptionsFromFlags } from './server-args.js';

export interface ServeArgs {
  server: StreamServerOptions;
  help: boolean;
  version: boolean;
}

export type ParsedServeArgs = { ok: true; args: ServeArgs } | { ok: false; error: string };

/** Parses `drainguard serve` arguments (strict: unknown options and positionals are errors). */
export function parseServeArgs(argv: readonly string[], cwd: string): ParsedServeArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        ...SERVER_FLAGS,
        mode: { type: 'string' },
        port: { type: 'string' },
        'keep-alive-timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: /[.!?]$/.test(message) ? message : `${message}.` };
  }
  const { values } = parsed;
  if (values.help || values.version) return { ok: true, args: { server: {}, help: values.help, version: values.version } };
  const server = serverOptionsFromFlags(values, cwd);
  if ('error' in server) return { ok: false, error: server.error };
  return { ok: true, args: { server: server.options, help: false, version: false } };
}
