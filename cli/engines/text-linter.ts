import type { ESLint } from 'eslint';
import { mayBeScript } from '../../rules/parser-options.js';
import { createDefaultProgram } from './default-program.js';
import type { ESLintSetupOptions, TextLint } from './eslint-setup.js';
import { isNativeParseError } from './native-error.js';
import { crashResult, isFatal, keepOwnMessages } from '../shared/results.js';
import type { CliRuleOptions } from '../shared/rule-args.js';

const NOT_IN_A_PROJECT = /was not found by the project service/;

export interface TextLinterOptions {
  /** The user's working directory (tsconfig root for the project service). */
  cwd: string;
  /** Type-aware linting (`--types`). */
  types?: boolean;
  /** The rule options given on the command line. */
  ruleOptions?: CliRuleOptions;
  /** Parse with the native parser first (default true; never with `types`). */
  native?: boolean;
}

/**
 * Lints file texts with drainguard's zero-config ESLint setup and keeps only drainguard's
 * messages. It parses with the native parser (cli/engines/native-parser.ts) unless told not to, or
 * `types` asks for typescript-eslint's parser. Fallbacks make it work on any code:
 * - a file the native parser does not accept, or whose native lint throws, is linted again with the usual parser
 *   (espree or typescript-eslint's), which gives the parse error or accepts the file;
 * - a `.js`/`.jsx` file that does not parse as an ES module is retried as a sloppy-mode script;
 * - with `types`, a TypeScript file that no tsconfig includes is linted again in `finish()` with
 *   a default TypeScript program built over all such files.
 */
export class TextLinter {
  private readonly options: TextLinterOptions;
  private native: TextLint | undefined;
  private primary: ESLint | undefined;
  private scriptMode: ESLint | undefined;
  private readonly outsideProjects = new Map<string, string>();

  constructor(options: TextLinterOptions) {
    this.options = options;
  }

  /** An ESLint set up for drainguard; ESLint is loaded at the first file it lints, not with the CLI. */
  private async createESLint(extra: Partial<ESLintSetupOptions> = {}): Promise<ESLint> {
    const { createESLint } = await import('./eslint-setup.js');
    return createESLint({ cwd: this.options.cwd, types: this.options.types, ruleOptions: this.options.ruleOptions, ...extra });
  }

  private async lintWith(eslint: ESLint, text: string, filePath: string): Promise<ESLint.LintResult> {
    try {
      const [result] = await eslint.lintText(text, { filePath, warnIgnored: true });
      return keepOwnMessages(result);
    } catch (error) {
      return crashResult(filePath, error);
    }
  }

  /**
   * The native lint's result, or undefined when the native parser does not take the file or the lint throws: the usual
   * parser's tree has what ESLint reads to say where a failing rule was (a node's `loc`), and its failure is reported.
   */
  private async lintNatively(text: string, filePath: string): Promise<ESLint.LintResult | undefined> {
    if (!this.native) {
      const { createNativeLint } = await import('./eslint-setup.js');
      this.native = await createNativeLint({ ruleOptions: this.options.ruleOptions });
    }
    try {
      const result = keepOwnMessages(await this.native(text, filePath));
      return result.messages.some(isNativeParseError) ? undefined : result;
    } catch {
      return undefined;
    }
  }

  /** Lints `text` as the content of `filePath` (an absolute path). */
  async lint(text: string, filePath: string): Promise<ESLint.LintResult> {
    if (this.options.native !== false && !this.options.types) {
      const result = await this.lintNatively(text, filePath);
      if (result) return result;
    }
    this.primary ??= await this.createESLint();
    const result = await this.lintWith(this.primary, text, filePath);
    if (!isFatal(result)) return result;
    if (mayBeScript(filePath)) {
      this.scriptMode ??= await this.createESLint({ scriptMode: true });
      const asScript = await this.lintWith(this.scriptMode, text, filePath);
      return isFatal(asScript) ? result : asScript;
    }
    if (this.options.types && result.messages.some((message) => NOT_IN_A_PROJECT.test(message.message))) {
      this.outsideProjects.set(filePath, text);
    }
    return result;
  }

  /** Replaces the results of TypeScript files outside every tsconfig (with `types`) by a type-aware lint. */
  async finish(results: ESLint.LintResult[]): Promise<ESLint.LintResult[]> {
    if (this.outsideProjects.size === 0) return results;
    const program = await createDefaultProgram(this.outsideProjects);
    const eslint = await this.createESLint({ programs: [program] });
    const relinted = new Map<string, ESLint.LintResult>();
    for (const [filePath, text] of this.outsideProjects) relinted.set(filePath, await this.lintWith(eslint, text, filePath));
    this.outsideProjects.clear();
    return results.map((result) => relinted.get(result.filePath) ?? result);
  }
}
