import type { Linter } from 'eslint';
import type { RuleOptions } from '../../rules/contract/rule-options.js';
import type { OptionTable, OptionValues } from './args.js';

/** The rule options `lint` and `fix` take alike, as the CLI names them. */
export const RULE_OPTIONS = {
  types: { type: 'boolean' },
  'terminal-pattern': { type: 'string', multiple: true },
  'close-method': { type: 'string', multiple: true },
} as const satisfies OptionTable;

/** The rule's options `terminalPatterns` / `closeMethods`, when given (each replaces the defaults, as in an ESLint config). */
export type CliRuleOptions = Partial<Pick<RuleOptions, 'terminalPatterns' | 'closeMethods'>>;

/** A method name as JavaScript and Python write one after a `.`. */
const METHOD_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

/** The rule options from `--terminal-pattern` and `--close-method`, checked as the rule would check them (duplicates dropped). */
export function ruleOptionsFrom(values: OptionValues<typeof RULE_OPTIONS>): { ok: true; ruleOptions: CliRuleOptions } | { ok: false; error: string } {
  for (const pattern of values['terminal-pattern'] ?? []) {
    try {
      // As the rule compiles it (rules/contract/vocabulary.ts compilePatterns).
      new RegExp(pattern, 'i');
    } catch (error) {
      return { ok: false, error: `--terminal-pattern '${pattern}' is not a regular expression: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (pattern === '') return { ok: false, error: '--terminal-pattern needs a non-empty regular expression (an empty one matches every name).' };
  }
  for (const name of values['close-method'] ?? []) {
    if (!METHOD_NAME.test(name)) return { ok: false, error: `--close-method takes a method name such as 'cancel', got '${name}'.` };
  }
  const ruleOptions: CliRuleOptions = {};
  if (values['terminal-pattern']) ruleOptions.terminalPatterns = [...new Set(values['terminal-pattern'])];
  if (values['close-method']) ruleOptions.closeMethods = [...new Set(values['close-method'])];
  return { ok: true, ruleOptions };
}

/** The rule's entry in an ESLint or oxlint config: its severity, and its options when any are given. */
export function ruleEntry(ruleOptions: CliRuleOptions = {}, types = false): Linter.RuleEntry {
  const options = { ...ruleOptions, ...(types ? { useTypes: true } : {}) };
  return Object.keys(options).length > 0 ? ['error', options] : 'error';
}
