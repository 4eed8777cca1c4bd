import { createRequire } from 'node:module';
import type { Linter } from 'eslint';
import { withoutSuggestions } from './suggestion-switch.js';
import type { TSESLint } from '@typescript-eslint/utils';
import rule, { ANALYSIS, jumpAfterClose, type MessageIds, type Options } from '../rules/no-early-stream-close.js';
import { asESLintRule, asTypedSourceCode } from '../rules/eslint-types.js';
import type { Node } from '../rules/analysis/ast.js';
import type { StreamResolver } from '../rules/analysis/streams.js';
import { basename } from 'node:path';
import { isTypeScriptPath, languageOptionsFor, mayBeScript } from './language.js';
import type { RuleOptions } from '../rules/no-early-stream-close.js';

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

export interface FoundSite {
  node: Node;
  messageId: string;
  line: number;
  column: number;
  /** The rule's stream resolver of this run (what it knows of the file's streams), handed on with its report. */
  streams?: StreamResolver;
  /** The reported close this jump follows (`body.destroy(); return;`): rewritten with it, reported as its site. */
  partOf?: FoundSite;
}

type LinterClass = typeof import('eslint').Linter;
let LoadedLinter: LinterClass | undefined;

/**
 * ESLint's Linter, loaded on first use: the rule's module graph holds this file (its suggestions are verified with it),
 * and a host that never evaluates a suggestion (oxlint, for reports it only prints) need not load ESLint.
 */
function newLinter(options: ConstructorParameters<LinterClass>[0]): Linter {
  LoadedLinter ??= (createRequire(import.meta.url)('eslint') as typeof import('eslint')).Linter;
  return new LoadedLinter(options);
}

export interface FoundSites {
  sites: FoundSite[];
  sourceCode: TSESLint.SourceCode;
  parseError?: string;
}

/** Runs the rule itself over the text (the single detection) and keeps the AST node of every report. */
export function findSites(text: string, filePath: string, options: FindSitesOptions = {}): FoundSites {
  const asModule = findSitesAs(text, filePath, false, options);
  if (!asModule.parseError || !mayBeScript(filePath) || options.languageOptions) return asModule;
  // As `drainguard lint` does: old code in a .js file may be a sloppy-mode script (`with`, octal literals).
  const asScript = findSitesAs(text, filePath, true, options);
  return asScript.parseError ? asModule : asScript;
}

function findSitesAs(text: string, filePath: string, scriptMode: boolean, options: FindSitesOptions): FoundSites {
  const captured: FoundSite[] = [];
  const capturingRule: TSESLint.RuleModule<MessageIds, Options> = {
    meta: rule.meta,
    defaultOptions: rule.defaultOptions,
    create(context) {
      const proxy = Object.create(context, {
        report: {
          value(descriptor: TSESLint.ReportDescriptor<MessageIds> & { node: Node; [ANALYSIS]?: StreamResolver }) {
            const { line, column } = descriptor.node.loc.start;
            captured.push({ node: descriptor.node, messageId: descriptor.messageId, line, column: column + 1, streams: descriptor[ANALYSIS] });
            context.report(descriptor);
          },
        },
      }) as typeof context;
      return rule.create(proxy);
    },
  };
  const types = Boolean(options.types) && isTypeScriptPath(filePath);
  const ruleOptions = { ...options.ruleOptions, ...(types ? { useTypes: true } : {}) };
  const languageOptions = options.languageOptions ?? languageOptionsFor(filePath, { scriptMode });
  if (types) {
    languageOptions.parserOptions = { ...languageOptions.parserOptions, projectService: true, tsconfigRootDir: options.cwd ?? process.cwd() };
  }
  const linter = newLinter({ configType: 'flat', cwd: types ? '/' : undefined });
  // The sites are all this needs: the rule's suggestions (a rewrite of each, verified) are not computed.
  const messages = withoutSuggestions(() => linter.verify(
    text,
    [
      {
        files: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'],
        languageOptions,
        plugins: { drainguard: { rules: { 'no-early-stream-close': asESLintRule(capturingRule) } } },
        rules: { 'drainguard/no-early-stream-close': Object.keys(ruleOptions).length > 0 ? ['error', ruleOptions] : 'error' },
      },
    ],
    // Flat config matches files relative to the cwd; the parser only needs the extension.
    // With type information the parser needs the real path (the project service finds its tsconfig from it).
    { filename: types ? filePath : basename(filePath) },
  ));
  const fatal = messages.find((message) => message.fatal);
  // A site silenced with an eslint-disable comment is reported by neither `lint` nor here, so `fix` leaves it alone.
  const reported = new Set(messages.filter((message) => !message.fatal).map((message) => `${message.line}:${message.column}`));
  const sites = captured.filter((site) => reported.has(`${site.line}:${site.column}`));
  // `body.destroy(); return;` is one report (at the close), but the jump that leaves the loop is rewritten too.
  for (const site of sites.filter((found) => found.messageId === 'explicitClose')) {
    const jump = jumpAfterClose(site.node);
    if (!jump || sites.some((found) => found.node === jump)) continue;
    sites.push({ node: jump, messageId: 'implicitClose', line: jump.loc.start.line, column: jump.loc.start.column + 1, streams: site.streams, partOf: site });
  }
  sites.sort((a, b) => a.line - b.line || a.column - b.column);
  return { sites, sourceCode: asTypedSourceCode(linter.getSourceCode()), parseError: fatal ? `${fatal.line}:${fatal.column} ${fatal.message}` : undefined };
}
