import { parseArgs } from 'node:util';
import { DEFAULT_DRAIN_MAX_BYTES, DEFAULT_DRAIN_TIMEOUT_MS } from '../rules/contract/drain-options.js';

export interface FixArgs {
  paths: string[];
  dry: boolean;
  print: boolean;
  json: boolean;
  /** The drain's time budget (0 = none); undefined when not given (an existing helper module keeps its own). */
  drainTimeoutMs?: number;
  /** The drain's byte limit (0 = none); undefined when not given. */
  drainMaxBytes?: number;
  /** Where the helper module the rewritten files import goes (a file, or a directory for drain-body.ts/.js). */
  helperPath?: string;
  /** 'auto' (default): type-check rewritten TypeScript files that a tsconfig.json applies to; 'on': every TypeScript file; 'off': none. */
  verify: 'auto' | 'on' | 'off';
  /** As `lint --types`: the rule confirms streams with type information. */
  types: boolean;
  /** The rule's options `terminalPatterns` / `closeMethods`, when given (each replaces the defaults, as in an ESLint config). */
  ruleOptions: { terminalPatterns?: string[]; closeMethods?: string[] };
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
        'drain-timeout-ms': { type: 'string' },
        'drain-max-bytes': { type: 'string' },
        'helper-path': { type: 'string' },
        verify: { type: 'boolean' },
        'no-verify': { type: 'boolean', default: false },
        types: { type: 'boolean', default: false },
        'terminal-pattern': { type: 'string', multiple: true },
        'close-method': { type: 'string', multiple: true },
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
  if (budgetText !== undefined && !isWholeNumber(budgetText)) {
    return { ok: false, error: `--drain-timeout-ms takes a whole number of milliseconds (0 = no budget, default ${DEFAULT_DRAIN_TIMEOUT_MS}), got '${budgetText}'.` };
  }
  const maxBytesText = values['drain-max-bytes'];
  if (maxBytesText !== undefined && !isWholeNumber(maxBytesText)) {
    return { ok: false, error: `--drain-max-bytes takes a whole number of bytes (0 = no byte limit, default ${DEFAULT_DRAIN_MAX_BYTES}), got '${maxBytesText}'.` };
  }
  if (values['helper-path'] === '') return { ok: false, error: '--helper-path takes a path.' };
  if (values.verify && values['no-verify']) return { ok: false, error: '--verify and --no-verify contradict each other.' };
  for (const pattern of values['terminal-pattern'] ?? []) {
    try {
      new RegExp(pattern, 'i');
    } catch (error) {
      return { ok: false, error: `--terminal-pattern '${pattern}' is not a regular expression: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const ruleOptions: FixArgs['ruleOptions'] = {};
  if (values['terminal-pattern']) ruleOptions.terminalPatterns = [...new Set(values['terminal-pattern'])];
  if (values['close-method']) ruleOptions.closeMethods = [...new Set(values['close-method'])];
  return {
    ok: true,
    args: {
      paths: positionals,
      dry: values.dry,
      print: values.print,
      json: values.json,
      drainTimeoutMs: budgetText === undefined ? undefined : Number(budgetText),
      drainMaxBytes: maxBytesText === undefined ? undefined : Number(maxBytesText),
      helperPath: values['helper-path'],
      verify: values.verify ? 'on' : values['no-verify'] ? 'off' : 'auto',
      types: values.types,
      ruleOptions,
      force: values.force,
      help: values.help,
      version: values.version,
    },
  };
}

function isWholeNumber(text: string): boolean {
  return /^\d+$/.test(text) && Number.isSafeInteger(Number(text));
}
