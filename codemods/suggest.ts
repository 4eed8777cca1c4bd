import type { Linter } from 'eslint';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { Node } from '../rules/analysis/ast.js';
import type { StreamResolver } from '../rules/analysis/streams.js';
import { drainBounds } from '../rules/contract/drain-options.js';
import type { RuleOptions } from '../rules/no-early-stream-close.js';
import { buildOutput } from './build-output.js';
import type { FoundSite } from './find-sites.js';
import { findHelperModule } from './helper-module.js';
import { applyEdits, mergeEdits, type Edit } from './layout.js';
import { planSites, type Plan } from './plan.js';
import { suggestionsPaused } from './suggestion-switch.js';
import { verifyRewrite } from './verify.js';

export interface SuggestedRewrite {
  /** All the plan's edits as one (one fix per suggestion). */
  edit: Edit;
}

export interface SuggestionContext {
  filename: string;
  /** The parser and options that read the file (ESLint's); where the host has none (oxlint), drainguard's own choice. */
  languageOptions?: Linter.LanguageOptions;
  ruleOptions: Partial<RuleOptions>;
}

/**
 * The rewrite the rule offers as a suggestion for each fixable site: the edits of the plan that site belongs to (all
 * sites of one `for await` share one), made by the same planner and edit builder as `drainguard fix`, and verified as
 * `fix` verifies (the rewritten file parses with the same parser, and the rule no longer reports the site) — a rewrite
 * that fails is not offered. The sites import the repository's helper module where one is found near the file and has
 * what they need (the suggestion changes one file only); else the file gets its own copy, with the default bounds.
 */
export function suggestedEdits(sites: readonly FoundSite[], sourceCode: SourceCode, context: SuggestionContext, streams?: StreamResolver): Map<Node, SuggestedRewrite> {
  const result = new Map<Node, SuggestedRewrite>();
  if (suggestionsPaused()) return result;
  const text = sourceCode.text;
  const options = { bounds: drainBounds(), helperModule: findHelperModule(context.filename) ?? undefined };
  const plans = planSites(sites, sourceCode, streams, { terminalPatterns: context.ruleOptions.terminalPatterns }).filter((plan) => plan.kind !== 'manual');
  const reported = sites.filter((site) => !site.partOf).length;
  const sitesOf = (plan: Plan): FoundSite[] => (plan.kind === 'loop' ? plan.changes.map((change) => change.site) : [plan.site]);
  const verifyOptions = { ruleOptions: { ...context.ruleOptions, useTypes: false }, languageOptions: verificationLanguageOptions(context.languageOptions) };
  const verified = (chosen: readonly Plan[]): boolean => {
    const { edits } = buildOutput(text, context.filename, sourceCode, chosen, options);
    const rewritten = chosen.flatMap(sitesOf).filter((site) => !site.partOf).length;
    return edits.length > 0 && verifyRewrite(applyEdits(text, edits), context.filename, verifyOptions, reported - rewritten) === null;
  };
  // One check of all rewrites together (a lint of the file); each on its own only where that fails, and only in a
  // file with few of them (a generated file with thousands of sites would take a lint per site).
  const offered = verified(plans) ? plans : plans.length <= MAX_SEPARATE_CHECKS ? plans.filter((plan) => verified([plan])) : [];
  for (const plan of offered) {
    const { edits } = buildOutput(text, context.filename, sourceCode, [plan], options);
    const rewrite = { edit: mergeEdits(text, edits) };
    for (const site of sitesOf(plan)) result.set(site.node, rewrite);
  }
  return result;
}

const MAX_SEPARATE_CHECKS = 8;

/**
 * The host's parser and options, without type information (the check is syntactic), where the host is ESLint with an
 * ESLint parser (espree, or one with `parseForESLint`); undefined elsewhere (oxlint's context mimics espree without
 * being it): drainguard's own choice by extension then reads the rewrite, as `drainguard fix` does.
 */
function verificationLanguageOptions(languageOptions: Linter.LanguageOptions | undefined): Linter.LanguageOptions | undefined {
  const parser: unknown = languageOptions?.parser;
  if (!languageOptions || typeof parser !== 'object' || parser === null) return undefined;
  const eslintParser = 'parseForESLint' in parser || ('name' in parser && parser.name === 'espree');
  if (!eslintParser) return undefined;
  const parserOptions = { ...languageOptions.parserOptions };
  delete parserOptions.project;
  delete parserOptions.projectService;
  const { ecmaVersion, sourceType, globals } = languageOptions;
  return { ecmaVersion, sourceType, ...(globals ? { globals } : {}), parser: languageOptions.parser, parserOptions };
}
