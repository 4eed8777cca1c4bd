import { parseArgs } from 'node:util';
import { closest } from './closest.js';

export interface OptionSpec {
  type: 'boolean' | 'string';
  short?: string;
  /** A string option given more than once keeps every value, in order. */
  multiple?: boolean;
}

export type OptionTable = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean' ? boolean : S['multiple'] extends true ? string[] : string;

/** The options given, by name; an option not given is absent. */
export type OptionValues<T extends OptionTable> = { [K in keyof T]?: ValueOf<T[K]> };

export interface CommandSpec<T extends OptionTable> {
  options: T;
  /** Other spellings users type by reflex, each with the arguments it stands for (`--dry-run` → `--dry`). */
  aliases?: Record<string, readonly string[]>;
  /** Options of other tools that deserve a pointer instead of a guess (`lint --fix` → `drainguard fix`). */
  hints?: Record<string, string>;
}

export type ParsedArgs<T extends OptionTable> = { ok: true; values: OptionValues<T>; positionals: string[] } | { ok: false; error: string };

/**
 * Parses a command's arguments with Node's parseArgs, but words every mistake itself, on one line: an
 * unknown option names the closest known one (`unknown option '--fromat' (did you mean --format?)`), a
 * string option without its value and a boolean option given one say so. Arguments after `--` are paths.
 */
export function parseCommandArgs<T extends OptionTable>(argv: readonly string[], spec: CommandSpec<T>): ParsedArgs<T> {
  const args = expandAliases(argv, spec.aliases ?? {});
  const { tokens } = parseArgs({ args, options: spec.options, allowPositionals: true, strict: false, tokens: true });
  const values: Record<string, boolean | string | string[]> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    if (!option) return { ok: false, error: unknownOption(token.rawName, spec) };
    const shown = `'${token.rawName}'`;
    if (option.type === 'boolean') {
      if (token.value !== undefined) return { ok: false, error: `option ${shown} takes no value, got '${token.value}'` };
      values[token.name] = true;
    } else if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) {
      return { ok: false, error: `option ${shown} needs a value` };
    } else if (option.multiple) {
      values[token.name] = [...((values[token.name] as string[] | undefined) ?? []), token.value];
    } else {
      values[token.name] = token.value;
    }
  }
  return { ok: true, values: values as OptionValues<T>, positionals };
}

function expandAliases(argv: readonly string[], aliases: Record<string, readonly string[]>): string[] {
  const terminator = argv.indexOf('--');
  const options = terminator === -1 ? argv : argv.slice(0, terminator);
  const rest = terminator === -1 ? [] : argv.slice(terminator);
  return [...options.flatMap((arg) => (Object.hasOwn(aliases, arg) ? aliases[arg] : [arg])), ...rest];
}

/** `unknown option '--fromat' (did you mean --format?)`, or the hint the command has for it. */
export function unknownOption(rawName: string, spec: CommandSpec<OptionTable>): string {
  const hint = spec.hints?.[rawName];
  if (hint) return `unknown option '${rawName}' (${hint})`;
  if (!rawName.startsWith('--')) return `unknown option '${rawName}'`;
  const known = [...Object.keys(spec.options).map((name) => `--${name}`), ...Object.keys(spec.aliases ?? {}).filter((alias) => alias.startsWith('--'))];
  const suggestion = closest(rawName, known);
  return suggestion ? `unknown option '${rawName}' (did you mean ${suggestion}?)` : `unknown option '${rawName}'`;
}
