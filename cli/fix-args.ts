import { parseArgs } from 'node:util';
import { DEFAULT_DRAIN_TIMEOUT_MS } from '../codemods/rewrite.js';

export interface FixArgs {
  paths: string[];
  dry: boolean;
  print: boolean;
  json: boolean;
  drainTimeoutMs: number;
  verify: boolean;
  force: boolean;
  help: boolean;
  version: boolean;
}

export type ParsedFixArgs = { ok: true; args: FixArgs } | { ok: false; error: string };

/** Parses `drainguard fix` arguments (strict: unknown options are errors). */
export function parseFixArgs(argv: readonly string[]): ParsedFixArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        dry: { type: 'boolean', default: false },
        print: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'drain-timeout-ms': { type: 'string', default: String(DEFAULT_DRAIN_TIMEOUT_MS) },
        verify: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  const budgetText = values['drain-timeout-ms'];
  if (!/^\d+$/.test(budgetText) || !Number.isSafeInteger(Number(budgetText))) {
    return { ok: false, error: `--drain-timeout-ms takes a whole number of milliseconds (0 = no budget), got '${budgetText}'.` };
  }
  return {
    ok: true,
    args: {
      paths: positionals,
      dry: values.dry,
      print: values.print,
      json: values.json,
      drainTimeoutMs: Number(budgetText),
      verify: values.verify,
      force: values.force,
      help: values.help,
      version: values.version,
    },
  };
}
