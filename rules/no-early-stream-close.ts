import type { TSESLint } from '@typescript-eslint/utils';
import type { Node } from './javascript/ast.js';
import { codePathsToSolve, earlyCloses, type EarlyClose } from './javascript/early-closes.js';
import { jumpAfterClose } from './javascript/jumps.js';
import { DEFAULT_CLOSE_METHODS, candidateOffsets, closeCandidatePattern } from './javascript/prefilter.js';
import type { RecordedSite } from './javascript/record-sites.js';
import { FlowRecorder, closeCallSelector } from './javascript/recorder.js';
import { locationOf, siteAt, type StreamSite } from './javascript/site.js';
import type { StreamResolver } from './javascript/streams.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from './javascript/words.js';
import { DEFAULT_DRAIN_TIMEOUT_MS } from './contract/drain-options.js';
import { DOCS_URL, MESSAGES, type MessageIds } from './contract/messages.js';
import type { Options, RuleOptions } from './contract/rule-options.js';
import { asESLintLanguageOptions } from './eslint-types.js';
import { suggestedEdits, type SuggestedRewrite, type SuggestionContext } from './fix/suggest.js';
import type { RuleHooks } from './lint-sites.js';
import { parseErrorOf, statementsApartCheck, verificationLanguageOptions } from './parse-check.js';

type SourceCode = TSESLint.SourceCode;
type RuleContext = Readonly<TSESLint.RuleContext<MessageIds, Options>>;

const defaultRuleOptions: RuleOptions = { terminalPatterns: [...DEFAULT_TERMINAL_PATTERNS], closeMethods: [...DEFAULT_CLOSE_METHODS], useTypes: false };

/**
 * The rule, with hooks for drainguard's own runs of it (`drainguard fix` and the verification of a rewrite take the
 * sites it reports through `onReport`). A typed rule module written out, not built with RuleCreator: ESLint merges
 * meta.defaultOptions into context.options itself, and RuleCreator's wrapper would clone the defaults again for every
 * file (structuredClone), which doubled the rule's cost on the corpus. `docs.recommended` is ESLint's flag (the rule is
 * in `drainguard.configs.recommended`).
 */
export function createNoEarlyStreamClose(hooks: RuleHooks = {}): TSESLint.RuleModule<MessageIds, Options, { recommended: boolean }> {
  return { meta, defaultOptions: [defaultRuleOptions], create: (context) => create(context, hooks) };
}

const meta: TSESLint.RuleMetaData<MessageIds, { recommended: boolean }, Options> = {
  type: 'problem',
  docs: {
    description: 'Disallow closing a streamed HTTP response right after its terminal event instead of draining it to EOF',
    recommended: true,
    url: DOCS_URL,
  },
  schema: [
    {
      type: 'object',
      properties: {
        terminalPatterns: {
          description: 'Regular expressions (case-insensitive, tested on the snake_case words of names and strings) that recognise a completion in a branch test; replaces the defaults.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
          uniqueItems: true,
        },
        closeMethods: {
          description: 'Method names whose call on a response stream, its reader, iterator or AbortController closes it.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
          uniqueItems: true,
        },
        useTypes: {
          description: 'Use type information, when the parser provides it, to find response streams by type and to confirm close receivers.',
          type: 'boolean',
        },
      },
      additionalProperties: false,
    },
  ],
  hasSuggestions: true,
  defaultOptions: [defaultRuleOptions],
  messages: MESSAGES,
};

function create(context: RuleContext, hooks: RuleHooks): TSESLint.RuleListener {
  const options = optionsOf(context);
  const sourceCode = contextField(context, 'sourceCode');
  // Offsets of close method names and `for await`: a file without one costs nothing more, and so does each function without one.
  const matchers = closeMethodMatchers.get(options.closeMethods);
  const candidates = candidateOffsets(sourceCode.text, matchers.candidates);
  if (candidates.length === 0) return {};
  // The JavaScript front end records the core's graph of each code path that may hold a close as ESLint walks the file.
  const recorder = new FlowRecorder(sourceCode, {
    candidates,
    closeMethods: options.closeMethods,
    closeCalls: matchers.closeCalls,
    terminalPatterns: () => terminalPatternCache.get(options.terminalPatterns),
    useTypes: options.useTypes,
  });
  // At the end of the file: the code paths that may close a response, solved; their early closes, reported.
  return recorder.listeners(() => {
    const found = earlyCloses(codePathsToSolve(recorder.codePaths));
    if (found.length > 0) reportEarlyCloses(found, context, hooks, sourceCode, recorder.streams);
  });
}

/** Each early close to the host's hook and as ESLint's report, with the rewrite of `drainguard fix` as its suggestion. */
function reportEarlyCloses(found: readonly EarlyClose[], context: RuleContext, hooks: RuleHooks, sourceCode: SourceCode, streams: StreamResolver): void {
  for (const { site } of found) hooks.onReport?.(siteAt(site.node, site.messageId, sourceCode, { streams, ...helperOf(site) }));
  // Built and parsed when a host first asks for a suggestion's fix (ESLint does at once; a host that only prints
  // reports never does), for all sites at once.
  let suggestions: Map<Node, SuggestedRewrite> | undefined;
  const suggested = (): Map<Node, SuggestedRewrite> => (suggestions ??= suggestionsFor(found.map(({ site }) => site), sourceCode, suggestionContext(context), streams));
  for (const { site, event } of found) {
    // No rewrite (a manual site, or one that does not parse): no fix, and ESLint drops the suggestion.
    const fix: TSESLint.ReportFixFunction = (fixer) => {
      const rewrite = suggested().get(site.node);
      return rewrite ? fixer.replaceTextRange([rewrite.edit.start, rewrite.edit.end], rewrite.edit.text) : null;
    };
    context.report({
      node: site.node,
      loc: locationOf(site.node, sourceCode),
      messageId: site.messageId,
      data: { ...site.data, ...site.describe?.(), event },
      ...(hooks.suggestions === false ? {} : { suggest: [{ messageId: 'drainInBackground', data: { budget: String(DEFAULT_DRAIN_TIMEOUT_MS) }, fix }] }),
    });
  }
}

/** The helper a reported call reaches, for the fix planner. */
function helperOf(site: RecordedSite): Pick<StreamSite, 'helper'> {
  const reach = site.reach?.();
  return reach ? { helper: reach.helper } : {};
}

const rule = createNoEarlyStreamClose();
export default rule;

/**
 * The options of a file's run. ESLint hands a rule configured without options its meta.defaultOptions[0] itself: no copy
 * of it on every file (most files cost the rule only this prologue and the candidate test).
 */
function optionsOf(context: RuleContext): RuleOptions {
  const given = contextField(context, 'options')[0];
  return given === defaultRuleOptions ? defaultRuleOptions : { ...defaultRuleOptions, ...given };
}

/**
 * A field of the rule context, read with `Reflect.get`: ESLint builds every file's context afresh, with a hidden class
 * V8 has not seen, and the first rule that reads one with `context.x` pays an inline-cache miss: about 8 µs a file for
 * `context.options`, 1.5 µs when another rule has read it first or with `Reflect.get`, a plain look-up (measured over
 * 3,862 SDK files). Over the corpus, with the rule first in the config: 849 -> 735 ms (TIMING=all).
 */
function contextField<K extends 'options' | 'sourceCode'>(context: RuleContext, key: K): RuleContext[K] {
  return Reflect.get(context, key);
}

// ESLint hands every file a fresh copy of the options: build what they compile to once per distinct value.
interface CloseMethodMatchers {
  /** The pre-filter, global: where a file may hold a close. */
  candidates: RegExp;
  /** The selector of close calls. */
  closeCalls: string;
}
/**
 * What is built from a list of option values, built once per list: looked up by the array first (ESLint hands every
 * file of a config the same options, so the common look-up joins nothing), then by its contents.
 */
class ListCache<T> {
  private readonly byArray = new WeakMap<readonly string[], T>();
  private readonly byContents = new Map<string, T>();

  constructor(private readonly build: (values: readonly string[]) => T) {}

  get(values: readonly string[]): T {
    let built = this.byArray.get(values);
    if (built === undefined) {
      const key = values.join('\n');
      built = this.byContents.get(key);
      if (built === undefined) this.byContents.set(key, (built = this.build(values)));
      this.byArray.set(values, built);
    }
    return built;
  }
}

const closeMethodMatchers = new ListCache<CloseMethodMatchers>((methods) => ({
  candidates: new RegExp(closeCandidatePattern(methods).source, 'g'),
  closeCalls: closeCallSelector(methods),
}));
const terminalPatternCache = new ListCache<RegExp[]>(compilePatterns);

/**
 * The suggestion is the rewrite `drainguard fix` makes (one code path), with the default bounds, where it parses.
 * A jump folded into the close right before it (`body.destroy(); return;`) is rewritten with that close.
 */
function suggestionsFor(found: readonly RecordedSite[], sourceCode: SourceCode, context: SuggestionContext, streams: StreamResolver): Map<Node, SuggestedRewrite> {
  const sites = new Map<Node, StreamSite>();
  for (const site of found) {
    const reported = siteAt(site.node, site.messageId, sourceCode, helperOf(site));
    sites.set(site.node, reported);
    const jump = site.messageId !== 'implicitClose' ? jumpAfterClose(site.node) : null;
    if (jump && !sites.has(jump)) sites.set(jump, siteAt(jump, 'implicitClose', sourceCode, { partOf: reported }));
  }
  // A site the planner cannot handle gets no suggestion rather than failing the lint of its file.
  try {
    return suggestedEdits([...sites.values()], sourceCode, context, streams);
  } catch {
    return new Map();
  }
}

/** How the suggestions of a file are planned and checked: with the rule's own options, by the parser that read the file. */
function suggestionContext(context: RuleContext): SuggestionContext {
  const ruleOptions = context.options[0] ?? {};
  const languageOptions = verificationLanguageOptions(asESLintLanguageOptions(context.languageOptions));
  return {
    filename: context.filename,
    terminalPatterns: ruleOptions.terminalPatterns,
    parses: (text) => parseErrorOf(text, context.filename, languageOptions) === null,
    statementsApart: statementsApartCheck(languageOptions),
  };
}
