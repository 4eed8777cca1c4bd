import type { Rule } from 'eslint';
import plugin from '../rules/index.js';

// Apart from cli/eslint-setup.ts, which imports ESLint itself: a run that oxlint lints never loads ESLint.
export const RULE_NAME = 'no-early-stream-close';
export const RULE_ID = `drainguard/${RULE_NAME}`;

/** The rule module (its `meta` gives the messages, the docs URL and the description for SARIF). */
export const ruleModule: Rule.RuleModule = plugin.rules[RULE_NAME];
