/**
 * The rule options both front ends take (`--terminal-pattern`, `--close-method` on the CLI): each list,
 * when given, replaces that front end's defaults, as an ESLint config does.
 */
export interface SharedRuleOptions {
  /** Regular expressions (case-insensitive) that recognise a completion in a branch test. */
  terminalPatterns?: string[];
  /** Method names whose call on a response stream closes it. */
  closeMethods?: string[];
}

/** The JavaScript rule's options, all filled in (`useTypes`: confirm streams with type information where the parser has it). */
export interface RuleOptions extends Required<SharedRuleOptions> {
  useTypes: boolean;
}

/** As a config writes them: every option may be left out (the defaults fill it in). */
export type Options = [Partial<RuleOptions>];
