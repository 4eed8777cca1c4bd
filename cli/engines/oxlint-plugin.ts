/**
 * The plugin `drainguard lint` hands to oxlint: drainguard's own plugin, whose rule also writes each
 * report's suggestions, shaped as ESLint shapes them, to the file named by SUGGESTIONS_ENV (one JSON
 * line per report). oxlint's JSON output carries no suggestions; with these lines `--format json`
 * needs no second lint of the file through ESLint.
 */
import { appendFileSync } from 'node:fs';
import type { Rule } from 'eslint';
import { interpolate } from '../../rules/contract/messages.js';
import plugin from '../../rules/index.js';
import { SUGGESTIONS_ENV, type Fix, type SuggestionRecord, type SuggestionResult } from './oxlint-suggestions.js';

/**
 * Only what the rule's suggestions call: one `replaceTextRange` per suggestion (the rule merges its
 * edits itself, rules/contract/apply-edits.ts mergeEdits), which ESLint records as it is. Anything else throws,
 * and that report gets no record (ESLint then lints the file).
 */
const fixer = {
  replaceTextRange(range: readonly [number, number], text: string): Fix {
    return { range: [range[0], range[1]], text };
  },
};

interface SuggestionDescriptor {
  messageId?: string;
  desc?: string;
  data?: Record<string, string>;
  fix: (fixer: unknown) => Fix | Iterable<Fix> | null;
}

/** As ESLint does, a suggestion whose fix gives nothing (a site with no verified rewrite) is dropped. */
function suggestionsOf(descriptor: { suggest?: SuggestionDescriptor[] | null }, messages: Record<string, string>): SuggestionResult[] {
  if (!Array.isArray(descriptor.suggest)) return [];
  return descriptor.suggest.flatMap((suggestion) => {
    const fix = suggestion.fix(fixer);
    if (!fix) return [];
    if (Symbol.iterator in fix) throw new Error('expected one fix per suggestion');
    return [{ ...suggestion, desc: interpolate(suggestion.desc ?? messages[suggestion.messageId ?? ''], suggestion.data), fix }];
  });
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
          const { node, messageId } = descriptor as { node?: { range?: [number, number] }; messageId?: string };
          if (node?.range) {
            const suggestions = suggestionsOf(descriptor as { suggest?: SuggestionDescriptor[] }, messages);
            const record: SuggestionRecord = { filename: context.filename, start: node.range[0], messageId, suggestions };
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
