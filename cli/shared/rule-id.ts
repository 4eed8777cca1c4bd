// The rule's id for the CLI, without the rule: importing it loads no part of the plugin (the rule, its analysis and
// fix planning load when a file is linted in process, or with SARIF output, cli/lint/sarif.ts).
export { RULE_ID, RULE_NAME } from '../../rules/contract/messages.js';
