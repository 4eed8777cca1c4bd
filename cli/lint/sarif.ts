import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint, Linter, Rule } from 'eslint';
import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from 'node-sarif-builder';
import type { Notification, PhysicalLocation, Region, ReportingDescriptor } from 'sarif';
import plugin from '../../rules/index.js';
import { isNotChecked } from '../shared/results.js';
import { RULE_ID, RULE_NAME } from '../shared/rule-id.js';
import { VERSION } from '../shared/version.js';

/** The rule module (its `meta` gives the messages, the docs URL and the description for SARIF). */
const ruleModule: Rule.RuleModule = plugin.rules[RULE_NAME];

/**
 * The SARIF rule id of files that could not be parsed. drainguard reports them as ordinary error results of this
 * pseudo-rule, so code scanning shows them next to the file, at the line where the parse failed.
 */
export const PARSE_ERROR_RULE_ID = 'drainguard/parse-error';

/**
 * The id of the notification a file gets that drainguard could not check at all (unreadable, too large, binary, not
 * UTF-8): no line of it is at fault, so it is a tool execution notification, not a result.
 */
export const NOT_CHECKED_NOTIFICATION_ID = 'drainguard/file-not-checked';

/** docs/cli.md of the repository, next to the rule's docs page. */
const CLI_DOCS_URL = (ruleModule.meta?.docs?.url ?? '').replace(/docs\/rules\/[^/]*$/, 'docs/cli.md');
export const PARSE_ERROR_HELP_URI = `${CLI_DOCS_URL}#files-that-do-not-parse`;
export const NOT_CHECKED_HELP_URI = `${CLI_DOCS_URL}#files-that-cannot-be-checked`;

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
      shortDescriptionText: 'The file could not be parsed, so it was not checked',
      helpUri: PARSE_ERROR_HELP_URI,
    }),
  ];
}

const NOT_CHECKED_DESCRIPTOR: ReportingDescriptor = {
  id: NOT_CHECKED_NOTIFICATION_ID,
  shortDescription: { text: 'The file could not be read, or is too large, binary or not UTF-8 text, so it was not checked' },
  helpUri: NOT_CHECKED_HELP_URI,
};

function physicalLocation(filePath: string, message: Linter.LintMessage, cwd: string): PhysicalLocation {
  const messageRegion = region(message);
  return { artifactLocation: artifactLocation(filePath, cwd), ...(messageRegion ? { region: messageRegion } : {}) };
}

/**
 * SARIF 2.1.0 log of the results: one result per message, level `error`; a file that could not be checked is a tool
 * execution notification of the run's invocation instead (level `error`, with the file's location).
 */
export function formatSarif(results: readonly ESLint.LintResult[], cwd: string): string {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: 'drainguard', toolDriverVersion: VERSION });
  for (const rule of ruleDescriptors()) run.addRule(rule);
  run.run.tool.driver.notifications = [NOT_CHECKED_DESCRIPTOR];
  run.run.originalUriBaseIds = { '%SRCROOT%': { uri: pathToFileURL(cwd + path.sep).href } };
  const notifications: Notification[] = [];
  for (const result of results) {
    for (const message of result.messages) {
      if (isNotChecked(message)) {
        notifications.push({
          level: 'error',
          message: { text: message.message },
          locations: [{ physicalLocation: physicalLocation(result.filePath, message, cwd) }],
          descriptor: { id: NOT_CHECKED_NOTIFICATION_ID, index: 0 },
        });
        continue;
      }
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
  // The run completed: a file it could not check is a notification of that, and the exit code says so (1).
  if (notifications.length > 0) run.run.invocations = [{ executionSuccessful: true, toolExecutionNotifications: notifications }];
  const log = new SarifBuilder();
  log.addRun(run);
  return log.buildSarifJsonString({ indent: true });
}
