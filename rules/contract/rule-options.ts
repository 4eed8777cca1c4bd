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
