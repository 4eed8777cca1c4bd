import type { ESLint, Linter, Rule } from 'eslint';
import packageJson from '../package.json' with { type: 'json' };
import { asESLintRule } from './eslint-types.js';
import { RULE_ID, RULE_NAME } from './contract/messages.js';
import noEarlyStreamClose from './no-early-stream-close.js';

export { closeCandidatePattern, DEFAULT_CLOSE_METHODS } from './javascript/prefilter.js';
export { DEFAULT_TERMINAL_PATTERNS } from './javascript/words.js';

const rules: Record<string, Rule.RuleModule> = { [RULE_NAME]: asESLintRule(noEarlyStreamClose) };

const configs: Record<'recommended', Linter.Config> = {
  recommended: { name: 'drainguard/recommended', plugins: {}, rules: { [RULE_ID]: 'error' } },
};

const plugin = {
  meta: { name: packageJson.name, version: packageJson.version },
  rules,
  configs,
} satisfies ESLint.Plugin;

// The recommended config names the plugin it belongs to (ESLint's documented self-reference).
configs.recommended.plugins = { drainguard: plugin };

export default plugin;
