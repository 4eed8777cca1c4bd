import { parseArgs } from 'node:util';
import { FORMATS, isFormat, type Format } from './format.js';

export interface LintArgs {
  paths: string[];
  format: Format;
  types: boolean;
  help: boolean;
  version: boolean;
}

export type ParsedLintArgs = { ok: true; args: LintArgs } | { ok: false; error: string };

/** Parses `drainguard lint` arguments (strict: unknown options are errors). */
export function parseLintArgs(argv: readonly string[]): ParsedLintArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', short: 'f', default: 'stylish' },
        types: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (!isFormat(values.format)) {
    return { ok: false, error: `Unknown format '${values.format}': use one of ${FORMATS.join(', ')}.` };
  }
  return {
    ok: true,
    args: { paths: positionals, format: values.format, types: values.types, help: values.help, version: values.version },
  };
}
