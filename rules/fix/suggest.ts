import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { Node } from '../javascript/ast.js';
import type { StreamSite } from '../javascript/site.js';
import type { StreamResolver } from '../javascript/streams.js';
import { applyEdits, mergeEdits, type Edit } from '../contract/apply-edits.js';
import { drainBounds } from '../contract/drain-options.js';
import { buildOutput, type BuiltOutput } from './build-output.js';
import { findHelperModule } from './helper-module.js';
import { planSites, type Plan } from './plan.js';
import { skeletonOf, type Range } from './skeleton.js';

export interface SuggestedRewrite {
  /** All the plan's edits as one (one fix per suggestion). */
  edit: Edit;
}

export interface SuggestionContext {
  filename: string;
  terminalPatterns?: string[];
  /** Whether a text parses with the parser that read the file. */
  parses: (text: string) => boolean;
  /**
   * Set where `parses` judges each top-level statement on its own (TypeScript's syntax check: no error spans two
   * statements), to a name of its parser and options: the file's own copy of the helpers, top-level statements inserted
   * between others, is then checked once on its own for each text and name and left out of the files' checks.
   */
  statementsApart?: string;
}

/**
 * The rewrite the rule offers as a suggestion for each fixable site: the edits of the plan that site belongs to (all
 * sites of one `for await` share one), made by the same planner and edit builder as `drainguard fix`. A rewrite that
 * does not parse with the parser that read the file is not offered. The check parses the rewrite's skeleton
 * (skeleton.ts: the functions the sites and edits are in, and the code around them), at a fraction of the cost of the
 * file's own parse; `drainguard fix` also runs the rule again on the whole rewritten file before it writes it. Where the
 * check judges top-level statements apart (TypeScript's), the file's own copy of the helpers (most of what a TypeScript
 * check read) is checked once on its own and left out.
 * The sites import the repository's helper module where one is found near the file and has what they need (the
 * suggestion changes one file only); else the file gets its own copy, with the default bounds.
 */
export function suggestedEdits(sites: readonly StreamSite[], sourceCode: SourceCode, context: SuggestionContext, streams?: StreamResolver): Map<Node, SuggestedRewrite> {
  const result = new Map<Node, SuggestedRewrite>();
  const text = sourceCode.text;
  const options = { bounds: drainBounds(), helperModule: findHelperModule(context.filename) ?? undefined };
  const plans = planSites(sites, sourceCode, streams, { terminalPatterns: context.terminalPatterns }).filter((plan) => plan.kind !== 'manual');
  const sitesOf = (plan: Plan): StreamSite[] => (plan.kind === 'loop' ? plan.changes.map((change) => change.site) : [plan.site]);
  if (plans.length === 0) return result;
  const build = (chosen: readonly Plan[]): BuiltOutput => buildOutput(text, context.filename, sourceCode, chosen, options);
  // Built once for all the plans: the skeleton keeps what they touch, and the first check parses them all.
  const all = build(plans);
  // A lone plan's own edits are all the edits, already built (and already checked).
  const builtAlone = (plan: Plan): BuiltOutput => (plans.length === 1 ? all : build([plan]));
  const kept: Range[] = [...sites.map((site) => site.node.range), ...all.edits.map((edit): Range => [edit.start, edit.end])];
  const skeleton = skeletonOf(sourceCode, kept, wordsOf(all.edits));
  const parses = ({ edits, ownCopy }: BuiltOutput): boolean => {
    if (edits.length === 0) return false;
    const checked = ownCopy && copyParsesApart(ownCopy.code, context) ? edits.filter((edit) => edit !== ownCopy.edit) : edits;
    return context.parses(applyEdits(skeleton.text, checked.map((edit) => ({ ...edit, start: skeleton.at(edit.start), end: skeleton.at(edit.end) }))));
  };
  // One check of all rewrites together; each on its own only where that fails, and only in a file with few of them (a
  // generated file with thousands of sites would take a parse per site).
  const separately = plans.length > 1 && plans.length <= MAX_SEPARATE_CHECKS;
  const allParse = parses(all);
  for (const plan of allParse || separately ? plans : []) {
    const alone = builtAlone(plan);
    if (!allParse && !parses(alone)) continue;
    const rewrite = { edit: mergeEdits(text, alone.edits) };
    for (const site of sitesOf(plan)) result.set(site.node, rewrite);
  }
  return result;
}

const MAX_SEPARATE_CHECKS = 8;

/** The verdicts on copies of the helpers checked on their own, by `statementsApart` name and text (a few styles a run). */
const copyVerdicts = new Map<string, boolean>();
const MAX_COPY_VERDICTS = 32;

/** Whether the helpers' `code`, checked on its own, parses where statements are judged apart (else it is checked in place). */
function copyParsesApart(code: string, context: SuggestionContext): boolean {
  if (context.statementsApart === undefined) return false;
  const key = `${context.statementsApart}\0${code}`;
  let verdict = copyVerdicts.get(key);
  if (verdict === undefined) {
    verdict = context.parses(code);
    if (copyVerdicts.size >= MAX_COPY_VERDICTS) copyVerdicts.clear();
    copyVerdicts.set(key, verdict);
  }
  return verdict;
}

/** The identifier-like words the edits write. */
function wordsOf(edits: readonly Edit[]): Set<string> {
  const words = new Set<string>();
  for (const edit of edits) for (const [word] of edit.text.matchAll(/[A-Za-z_$][\w$]*/g)) words.add(word);
  return words;
}
