import { parseCommandArgs, type CommandSpec, type OptionTable } from '../shared/args.js';
import { FORMATS, isFormat, type Format } from './format.js';
import { RULE_OPTIONS, ruleOptionsFrom, type CliRuleOptions } from '../shared/rule-args.js';

export interface LintArgs {
  paths: string[];
  format: Format;
  types: boolean;
  ruleOptions: CliRuleOptions;
  /** `--color` / `--no-color`; undefined: colors on a terminal that has them, unless NO_COLOR is set. */
  color: boolean | undefined;
  help: boolean;
  version: boolean;
}

export type ParsedLintArgs = { ok: true; args: LintArgs } | { ok: false; error: string };

const LINT_SPEC = {
  options: {
    format: { type: 'string', short: 'f' },
    ...RULE_OPTIONS,
    color: { type: 'boolean' },
    'no-color': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  },
  // What ESLint and other linters take: `--json` is `--format json`.
  aliases: { '--json': ['--format', 'json'] },
  hints: { '--fix': "lint only reports: 'drainguard fix' rewrites the sites" },
} as const satisfies CommandSpec<OptionTable>;

/** Parses `drainguard lint` arguments (an unknown option is an error that names the closest known one). */
export function parseLintArgs(argv: readonly string[]): ParsedLintArgs {
  const parsed = parseCommandArgs(argv, LINT_SPEC);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed;
  const format = values.format ?? 'stylish';
  if (!isFormat(format)) return { ok: false, error: `unknown format '${format}' (use ${FORMATS.slice(0, -1).join(', ')} or ${FORMATS.at(-1)})` };
  if (values.color && values['no-color']) return { ok: false, error: '--color and --no-color contradict each other.' };
  const rule = ruleOptionsFrom(values);
  if (!rule.ok) return rule;
  return {
    ok: true,
    args: {
      paths: positionals,
      format,
      types: values.types ?? false,
      ruleOptions: rule.ruleOptions,
      color: values.color ? true : values['no-color'] ? false : undefined,
      help: values.help ?? false,
      version: values.version ?? false,
    },
  };
}
