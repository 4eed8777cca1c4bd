import { DEFAULT_DRAIN_MAX_BYTES, DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_DRAIN_WAIT_MS } from '../../rules/contract/drain-options.js';
import { parseCommandArgs, type CommandSpec, type OptionTable } from '../shared/args.js';
import { RULE_OPTIONS, ruleOptionsFrom, type CliRuleOptions } from '../shared/rule-args.js';

export interface FixArgs {
  paths: string[];
  dry: boolean;
  print: boolean;
  json: boolean;
  /** The drain's time budget (0 = none); undefined when not given (an existing helper module keeps its own). */
  drainTimeoutMs?: number;
  /** The drain's byte limit (0 = none); undefined when not given. */
  drainMaxBytes?: number;
  /** The budget of a drain the caller waits for (0 = the whole drain budget); undefined when not given. */
  drainWaitMs?: number;
  /** Where the helper module the rewritten files import goes (a file, or a directory for drain-body.ts/.js). */
  helperPath?: string;
  /** 'auto' (default): type-check rewritten TypeScript files that a tsconfig.json applies to; 'on': every TypeScript file; 'off': none. */
  verify: 'auto' | 'on' | 'off';
  /** As `lint --types`: the rule confirms streams with type information. */
  types: boolean;
  /** The rule's options `terminalPatterns` / `closeMethods`, when given (each replaces the defaults, as in an ESLint config). */
  ruleOptions: CliRuleOptions;
  /** Whether a test of the helper module is written with it (`--no-test`: not). */
  test: boolean;
  force: boolean;
  help: boolean;
  version: boolean;
}

export type ParsedFixArgs = { ok: true; args: FixArgs } | { ok: false; error: string };

/** The options of `drainguard fix`: add one here, then read it in parseFixArgs. */
const FIX_SPEC = {
  options: {
    dry: { type: 'boolean' },
    print: { type: 'boolean' },
    json: { type: 'boolean' },
    'drain-timeout-ms': { type: 'string' },
    'drain-max-bytes': { type: 'string' },
    'drain-wait-ms': { type: 'string' },
    'helper-path': { type: 'string' },
    verify: { type: 'boolean' },
    'no-verify': { type: 'boolean' },
    'no-test': { type: 'boolean' },
    ...RULE_OPTIONS,
    force: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  },
  // What other tools take: `--dry-run` and `-n` (git, rsync, make) write nothing; `--diff` (ruff, black) shows the rewrite without writing it.
  aliases: { '--dry-run': ['--dry'], '-n': ['--dry'], '--diff': ['--dry', '--print'] },
} as const satisfies CommandSpec<OptionTable>;

/** A whole number >= 0 given as `--name N`, undefined when not given, or an error message. */
function wholeNumber(name: string, text: string | undefined, unit: string): number | string | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  return `--${name} takes a whole number of ${unit}, got '${text}'.`;
}

/** Parses `drainguard fix` arguments (an unknown option is an error that names the closest known one). */
export function parseFixArgs(argv: readonly string[]): ParsedFixArgs {
  const parsed = parseCommandArgs(argv, FIX_SPEC);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed;
  const drainTimeoutMs = wholeNumber('drain-timeout-ms', values['drain-timeout-ms'], `milliseconds (0 = no budget, default ${DEFAULT_DRAIN_TIMEOUT_MS})`);
  if (typeof drainTimeoutMs === 'string') return { ok: false, error: drainTimeoutMs };
  const drainMaxBytes = wholeNumber('drain-max-bytes', values['drain-max-bytes'], `bytes (0 = no byte limit, default ${DEFAULT_DRAIN_MAX_BYTES})`);
  if (typeof drainMaxBytes === 'string') return { ok: false, error: drainMaxBytes };
  const drainWaitMs = wholeNumber('drain-wait-ms', values['drain-wait-ms'], `milliseconds (0 = the whole --drain-timeout-ms, default ${DEFAULT_DRAIN_WAIT_MS})`);
  if (typeof drainWaitMs === 'string') return { ok: false, error: drainWaitMs };
  if (values['helper-path'] === '') return { ok: false, error: '--helper-path takes a path.' };
  if (values.verify && values['no-verify']) return { ok: false, error: '--verify and --no-verify contradict each other.' };
  const rule = ruleOptionsFrom(values);
  if (!rule.ok) return rule;
  return {
    ok: true,
    args: {
      paths: positionals,
      dry: values.dry ?? false,
      print: values.print ?? false,
      json: values.json ?? false,
      drainTimeoutMs,
      drainMaxBytes,
      drainWaitMs,
      helperPath: values['helper-path'],
      verify: values.verify ? 'on' : values['no-verify'] ? 'off' : 'auto',
      types: values.types ?? false,
      ruleOptions: rule.ruleOptions,
      test: !(values['no-test'] ?? false),
      force: values.force ?? false,
      help: values.help ?? false,
      version: values.version ?? false,
    },
  };
}
