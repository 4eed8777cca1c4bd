import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint, Linter, Rule } from 'eslint';
import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from 'node-sarif-builder';
import type { Region } from 'sarif';
import plugin from '../rules/index.js';
import { RULE_ID, RULE_NAME } from './rule-id.js';
import { VERSION } from './version.js';

/** The rule module (its `meta` gives the messages, the docs URL and the description for SARIF). */
const ruleModule: Rule.RuleModule = plugin.rules[RULE_NAME];

/**
 * The SARIF rule id of files that could not be parsed (or read). drainguard reports them as
 * ordinary error results of this pseudo-rule, so code scanning shows them next to the file.
 */
export const PARSE_ERROR_RULE_ID = 'drainguard/parse-error';

/** An artifact URI: relative to `cwd` (with `%SRCROOT%` = `cwd`) when the file is below it, else a file: URL. */
function artifactLocation(filePath: string, cwd: string): { uri: string; uriBaseId?: string } {
  const relative = path.relative(cwd, filePath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return { uri: pathToFileURL(filePath).href };
  return { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function region(message: Linter.LintMessage): Region | undefined {
  if (!(message.line >= 1)) return undefined;
  const start: Region = { startLine: message.line, startColumn: Math.max(1, message.column) };
  if (message.endLine === undefined || message.endLine < 1) return start;
  return { ...start, endLine: message.endLine, endColumn: Math.max(1, message.endColumn ?? 1) };
}

function ruleDescriptors(): SarifRuleBuilder[] {
  const docs = ruleModule.meta?.docs;
  return [
    new SarifRuleBuilder().initSimple({
      ruleId: RULE_ID,
      shortDescriptionText: docs?.description ?? RULE_ID,
      helpUri: docs?.url,
    }),
    new SarifRuleBuilder().initSimple({
      ruleId: PARSE_ERROR_RULE_ID,
      shortDescriptionText: 'The file could not be parsed or read, so it was not checked',
    }),
  ];
}

/** SARIF 2.1.0 log of the results: one result per message, level `error`. */
export function formatSarif(results: readonly ESLint.LintResult[], cwd: string): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: 'drainguard', toolDriverVersion: VERSION });
  for (const rule of ruleDescriptors()) run.addRule(rule);
  run.run.originalUriBaseIds = { '%SRCROOT%': { uri: pathToFileURL(cwd + path.sep).href } };
  for (const result of results) {
    for (const message of result.messages) {
      const sarifResult = new SarifResultBuilder();
      sarifResult.setRuleId(message.fatal ? PARSE_ERROR_RULE_ID : (message.ruleId ?? PARSE_ERROR_RULE_ID));
      sarifResult.setLevel('error');
      sarifResult.setMessageText(message.message);
      sarifResult.setLocationArtifactUri(artifactLocation(result.filePath, cwd));
      const messageRegion = region(message);
      if (messageRegion) sarifResult.setLocationRegion(messageRegion);
      run.addResult(sarifResult);
    }
  }
  const log = new SarifBuilder();
  log.addRun(run);
  return log.buildSarifJsonString({ indent: true });
}
