/**
 * The plugin `drainguard lint` hands to oxlint: drainguard's own plugin, whose rule also writes each
 * report's suggestions, shaped as ESLint shapes them, to the file named by SUGGESTIONS_ENV (one JSON
 * line per report). oxlint's JSON output carries no suggestions; with these lines `--format json`
 * needs no second lint of the file through ESLint.
 */
import { appendFileSync } from 'node:fs';
import type { Rule } from 'eslint';
import plugin from '../rules/index.js';

export const SUGGESTIONS_ENV = 'DRAINGUARD_OXLINT_SUGGESTIONS';

/** One report's suggestions: the file, the report's start offset, and the suggestions as ESLint's LintMessage has them. */
export interface SuggestionRecord {
  filename: string;
  start: number;
  suggestions: SuggestionResult[];
}

interface Fix {
  range: [number, number];
  text: string;
}

interface SuggestionResult {
  messageId?: string;
  data?: Record<string, string>;
  fix: Fix;
  desc: string;
}

/** Only what the rule's suggestions call; anything else throws, and that report gets no record (ESLint then lints the file). */
const fixer = {
  replaceTextRange(range: readonly [number, number], text: string): Fix {
    return { range: [range[0], range[1]], text };
  },
};

/** ESLint's merge of a suggestion's several fixes into one (eslint/lib/linter/file-report.js). */
function mergeFixes(fixes: Fix[], text: string): Fix | null {
  if (fixes.length === 0) return null;
  if (fixes.length === 1) return { range: [fixes[0].range[0], fixes[0].range[1]], text: fixes[0].text };
  fixes.sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  const start = fixes[0].range[0];
  const end = fixes.at(-1)!.range[1];
  let merged = '';
  let lastPos = Number.MIN_SAFE_INTEGER;
  for (const fix of fixes) {
    if (fix.range[0] < lastPos) throw new Error('overlapping fixes');
    if (fix.range[0] >= 0) merged += text.slice(Math.max(0, start, lastPos), fix.range[0]);
    merged += fix.text;
    lastPos = fix.range[1];
  }
  merged += text.slice(Math.max(0, start, lastPos), end);
  return { range: [start, end], text: merged };
}

/** ESLint's `{{ name }}` interpolation (eslint/lib/linter/interpolate.js). */
function interpolate(template: string, data: Record<string, string> | undefined): string {
  if (!data || !template.includes('{{')) return template;
  return template.replace(/\{\{([^{}]+)\}\}/gu, (whole, name: string) => (name.trim() in data ? data[name.trim()] : whole));
}

interface SuggestionDescriptor {
  messageId?: string;
  desc?: string;
  data?: Record<string, string>;
  fix: (fixer: unknown) => Fix | Iterable<Fix> | null;
}

function suggestionsOf(descriptor: { suggest?: SuggestionDescriptor[] | null }, text: string, messages: Record<string, string>): SuggestionResult[] {
  if (!Array.isArray(descriptor.suggest)) return [];
  const results: SuggestionResult[] = [];
  for (const suggestion of descriptor.suggest) {
    const fixes = suggestion.fix(fixer);
    const fix = fixes && Symbol.iterator in fixes ? mergeFixes([...fixes], text) : fixes;
    if (fix) results.push({ ...suggestion, desc: interpolate(suggestion.desc ?? messages[suggestion.messageId ?? ''], suggestion.data), fix });
  }
  return results;
}

function recording(rule: Rule.RuleModule): Rule.RuleModule {
  const messages = rule.meta?.messages ?? {};
  return {
    ...rule,
    create(context) {
      const out = process.env[SUGGESTIONS_ENV];
      if (!out) return rule.create(context);
      const report = (descriptor: Parameters<Rule.RuleContext['report']>[0]): void => {
        try {
          const node = (descriptor as { node?: { range?: [number, number] } }).node;
          if (node?.range) {
            const suggestions = suggestionsOf(descriptor as { suggest?: SuggestionDescriptor[] }, context.sourceCode.text, messages);
            const record: SuggestionRecord = { filename: context.filename, start: node.range[0], suggestions };
            appendFileSync(out, `${JSON.stringify(record)}\n`);
          }
        } catch {
          // No record: the CLI lints this file again with ESLint.
        }
        context.report(descriptor);
      };
      // The target is an empty object: oxlint's context has a read-only `report` a proxy of it could not replace.
      const wrapped = new Proxy({} as Rule.RuleContext, {
        get(_, key) {
          if (key === 'report') return report;
          const value: unknown = Reflect.get(context, key, context);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(context) : value;
        },
        has: (_, key) => key in context,
      });
      return rule.create(wrapped);
    },
  };
}

export default {
  ...plugin,
  rules: Object.fromEntries(Object.entries(plugin.rules).map(([name, rule]) => [name, recording(rule)])),
};
