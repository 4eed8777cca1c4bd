import type { Linter } from 'eslint';

/** What the native parser throws for a text oxc-parser does not accept (see cli/engines/native-parser.ts). */
export const NATIVE_PARSE_ERROR = 'drainguard: oxc-parser does not accept this file';

/** Whether a lint message is the fatal error the native parser's refusal became: the file is then linted with the usual parser. */
export function isNativeParseError(message: Linter.LintMessage): boolean {
  return message.fatal === true && message.message.endsWith(NATIVE_PARSE_ERROR);
}
