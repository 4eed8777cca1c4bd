import type { Rule } from 'eslint';
import { RULE_NAME } from '../rules/contract/messages.js';
import plugin from '../rules/index.js';

// Apart from cli/eslint-setup.ts, which imports ESLint itself: a run that oxlint lints never loads ESLint.
export { RULE_ID, RULE_NAME } from '../rules/contract/messages.js';

/** The rule module (its `meta` gives the messages, the docs URL and the description for SARIF). */
export const ruleModule: Rule.RuleModule = plugin.rules[RULE_NAME];
