import { createRequire } from 'node:module';
import { basename } from 'node:path';
import type { Linter } from 'eslint';
import type { TSESLint } from '@typescript-eslint/utils';
import { siteAt, type StreamSite } from './javascript/site.js';
import { jumpAfterClose } from './javascript/jumps.js';
import { RULE_ID, RULE_NAME, type MessageIds } from './contract/messages.js';
import type { Options, RuleOptions } from './contract/rule-options.js';
import { asESLintRule, asTypedSourceCode } from './eslint-types.js';
import { isTypeScriptPath, languageOptionsFor, mayBeScript } from './parser-options.js';

/** What a caller of the rule may ask of it besides ESLint's reports. */
export interface RuleHooks {
  /** Called with every site the rule reports, as the fix planner takes it (before ESLint applies disable comments). */
  onReport?: (site: StreamSite) => void;
  /** Offer suggestions (default true); a run that only wants the sites (`fix`, a verification) skips building them. */
  suggestions?: boolean;
}

/** Builds the rule with its hooks (rules/no-early-stream-close.ts); passed in, so that this module does not import the rule. */
export type RuleFactory = (hooks: RuleHooks) => TSESLint.RuleModule<MessageIds, Options>;

export interface FindSitesOptions {
  /** The rule's options (`terminalPatterns`, `closeMethods`), as `lint` and an ESLint config take them. */
  ruleOptions?: Partial<RuleOptions>;
  /** As `lint --types`: type information from the project service for TypeScript files (the rule's `useTypes`). */
  types?: boolean;
  /** `tsconfigRootDir` for `types` (default: the working directory). */
  cwd?: string;
  /** The parser and options to read the file with (default: drainguard's own choice by extension, as `lint` makes it). */
  languageOptions?: Linter.LanguageOptions;
}

export interface FoundSites {
  sites: StreamSite[];
  sourceCode: TSESLint.SourceCode;
  parseError?: string;
}

type LinterClass = typeof import('eslint').Linter;
let LoadedLinter: LinterClass | undefined;

/** ESLint's Linter, loaded on first use. */
function newLinter(options: ConstructorParameters<LinterClass>[0]): Linter {
  LoadedLinter ??= (createRequire(import.meta.url)('eslint') as typeof import('eslint')).Linter;
  return new LoadedLinter(options);
}

/** Runs the rule itself over the text (the single detection) and keeps the AST node of every report. */
export function findSitesWith(createRule: RuleFactory, text: string, filePath: string, options: FindSitesOptions = {}): FoundSites {
  const asModule = findSitesAs(createRule, text, filePath, false, options);
  if (!asModule.parseError || !mayBeScript(filePath) || options.languageOptions) return asModule;
  // As `drainguard lint` does: old code in a .js file may be a sloppy-mode script (`with`, octal literals).
  const asScript = findSitesAs(createRule, text, filePath, true, options);
  return asScript.parseError ? asModule : asScript;
}

function findSitesAs(createRule: RuleFactory, text: string, filePath: string, scriptMode: boolean, options: FindSitesOptions): FoundSites {
  const captured: StreamSite[] = [];
  // The sites are all this needs: the rule's suggestions (a rewrite of each, verified) are not computed.
  const rule = createRule({ suggestions: false, onReport: (site) => captured.push(site) });
  const types = Boolean(options.types) && isTypeScriptPath(filePath);
  const ruleOptions = { ...options.ruleOptions, ...(types ? { useTypes: true } : {}) };
  const languageOptions = options.languageOptions ?? languageOptionsFor(filePath, { scriptMode });
  if (types) {
    languageOptions.parserOptions = { ...languageOptions.parserOptions, projectService: true, tsconfigRootDir: options.cwd ?? process.cwd() };
  }
  const linter = newLinter({ configType: 'flat', cwd: types ? '/' : undefined });
  const messages = linter.verify(
    text,
    [
      {
        files: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'],
        languageOptions,
        plugins: { drainguard: { rules: { [RULE_NAME]: asESLintRule(rule) } } },
        rules: { [RULE_ID]: Object.keys(ruleOptions).length > 0 ? ['error', ruleOptions] : 'error' },
      },
    ],
    // Flat config matches files relative to the cwd; the parser only needs the extension.
    // With type information the parser needs the real path (the project service finds its tsconfig from it).
    { filename: types ? filePath : basename(filePath) },
  );
  const fatal = messages.find((message) => message.fatal);
  // A site silenced with an eslint-disable comment is reported by neither `lint` nor here, so `fix` leaves it alone.
  const reported = new Set(messages.filter((message) => !message.fatal).map((message) => `${message.line}:${message.column}`));
  const sites = captured.filter((site) => reported.has(`${site.line}:${site.column}`));
  const sourceCode = asTypedSourceCode(linter.getSourceCode());
  // `body.destroy(); return;` is one report (at the close), but the jump that leaves the loop is rewritten too.
  for (const site of sites.filter((found) => found.kind !== 'implicitClose')) {
    const jump = jumpAfterClose(site.node);
    if (!jump || sites.some((found) => found.node === jump)) continue;
    sites.push(siteAt(jump, 'implicitClose', sourceCode, { streams: site.streams, partOf: site }));
  }
  sites.sort((a, b) => a.line - b.line || a.column - b.column);
  return { sites, sourceCode, parseError: fatal ? `${fatal.line}:${fatal.column} ${fatal.message}` : undefined };
}

/**
 * Checks a rewritten text before anything is written or suggested: it must parse with the parser that read the
 * original, and the rule, run on it again, must report no more sites than the ones left as they were (`remaining`).
 * Returns why the rewrite fails, or null when it passes.
 */
export function verifyRewriteWith(createRule: RuleFactory, output: string, filePath: string, options: FindSitesOptions, remaining: number): string | null {
  const again = findSitesWith(createRule, output.replace(/^\uFEFF/, ''), filePath, options);
  if (again.parseError) return `rolled back: the rewrite does not parse (${again.parseError})`;
  const reported = again.sites.filter((site) => !site.partOf).length;
  if (reported > remaining) return 'rolled back: the rule still reports this site after the rewrite';
  return null;
}
