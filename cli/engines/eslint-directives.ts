import { RULE_ID } from '../shared/rule-id.js';

/** Where a comment may start a directive ESLint or oxlint reads (`// eslint-disable-line …`, `/* global … *\/`). */
const DIRECTIVE_START = /\/([/*])\s*(?:eslint|oxlint|globals?|exported)\b/g;
/** A disable or enable directive, its rule list, and an optional ` -- description`. */
const DISABLE_OR_ENABLE = /^(?:eslint|oxlint)-(?:disable|enable|disable-line|disable-next-line)(?:\s+([\s\S]*))?$/;
const DESCRIPTION = /\s-{2,}\s[\s\S]*$/;
const PLUGIN = RULE_ID.split('/')[0];

/**
 * Whether a file holds a comment that ESLint and oxlint may read differently for drainguard's rule,
 * so that only ESLint can give ESLint's exact result for it:
 * - configuration (`/* eslint rule: … *\/`), `/* global … *\/`, `/* exported … *\/`: they change what
 *   runs or how names resolve, and oxlint does not read them as ESLint does;
 * - a disable or enable directive that names no rule or names drainguard's: ESLint lists what it
 *   suppresses (`suppressedMessages`), oxlint drops it; and only oxlint reads `oxlint-disable`;
 * - a byte order mark (ESLint's positions start after it).
 * A directive that names only other rules (`// eslint-disable-next-line no-console`) changes nothing
 * for drainguard's rule in either: such files, common in published SDKs, can go to oxlint.
 * Comments are found by their text, strings included: a false hit only sends a file to ESLint.
 */
export function needsESLintDirectives(text: string): boolean {
  if (text.charCodeAt(0) === 0xfeff) return true;
  for (const match of text.matchAll(DIRECTIVE_START)) {
    const bodyStart = match.index + 2;
    const bodyEnd = match[1] === '/' ? lineEnd(text, bodyStart) : blockEnd(text, bodyStart);
    if (!namesOnlyOtherRules(text.slice(bodyStart, bodyEnd).trim())) return true;
  }
  return false;
}

function namesOnlyOtherRules(body: string): boolean {
  const directive = DISABLE_OR_ENABLE.exec(body);
  if (!directive) return false;
  const rules = ` ${directive[1] ?? ''}`
    .replace(DESCRIPTION, '')
    .split(',')
    .map((rule) => rule.trim())
    .filter(Boolean);
  return rules.length > 0 && rules.every((rule) => !rule.includes(PLUGIN));
}

const REST_OF_LINE = /[^\r\n\u2028\u2029]*/y;

function lineEnd(text: string, from: number): number {
  REST_OF_LINE.lastIndex = from;
  REST_OF_LINE.test(text);
  return REST_OF_LINE.lastIndex;
}

function blockEnd(text: string, from: number): number {
  const end = text.indexOf('*/', from);
  return end === -1 ? text.length : end;
}
