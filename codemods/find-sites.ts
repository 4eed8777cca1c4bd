import { Linter, type Rule, type SourceCode } from 'eslint';
import rule, { jumpAfterClose } from '../rules/no-early-stream-close.js';
import type { Node } from '../rules/analysis/ast.js';
import { basename } from 'node:path';
import { languageOptionsFor, mayBeScript } from './language.js';

export interface FoundSite {
  node: Node;
  messageId: string;
  line: number;
  column: number;
  /** The reported close this jump follows (`body.destroy(); return;`): rewritten with it, reported as its site. */
  partOf?: FoundSite;
}

export interface FoundSites {
  sites: FoundSite[];
  sourceCode: SourceCode;
  parseError?: string;
}

/** Runs the rule itself over the text (the single detection) and keeps the AST node of every report. */
export function findSites(text: string, filePath: string): FoundSites {
  const asModule = findSitesAs(text, filePath, false);
  if (!asModule.parseError || !mayBeScript(filePath)) return asModule;
  // As `drainguard lint` does: old code in a .js file may be a sloppy-mode script (`with`, octal literals).
  const asScript = findSitesAs(text, filePath, true);
  return asScript.parseError ? asModule : asScript;
}

function findSitesAs(text: string, filePath: string, scriptMode: boolean): FoundSites {
  const captured: FoundSite[] = [];
  const capturingRule: Rule.RuleModule = {
    meta: rule.meta,
    create(context) {
      const proxy = Object.create(context, {
        report: {
          value(descriptor: { node: Node; messageId: string }) {
            const { line, column } = descriptor.node.loc.start;
            captured.push({ node: descriptor.node, messageId: descriptor.messageId, line, column: column + 1 });
            context.report(descriptor as never);
          },
        },
      }) as Rule.RuleContext;
      return rule.create(proxy);
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    text,
    [
      {
        files: ['**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}'],
        languageOptions: languageOptionsFor(filePath, { scriptMode }),
        plugins: { drainguard: { rules: { 'no-early-stream-close': capturingRule } } },
        rules: { 'drainguard/no-early-stream-close': 'error' },
      },
    ],
    // Flat config matches files relative to the cwd; the parser only needs the extension.
    { filename: basename(filePath) },
  );
  const fatal = messages.find((message) => message.fatal);
  // A site silenced with an eslint-disable comment is reported by neither `lint` nor here, so `fix` leaves it alone.
  const reported = new Set(messages.filter((message) => !message.fatal).map((message) => `${message.line}:${message.column}`));
  const sites = captured.filter((site) => reported.has(`${site.line}:${site.column}`));
  // `body.destroy(); return;` is one report (at the close), but the jump that leaves the loop must be rewritten too.
  for (const site of sites.filter((found) => found.messageId === 'explicitClose')) {
    const jump = jumpAfterClose(site.node);
    if (jump && !sites.some((found) => found.node === jump)) sites.push({ node: jump, messageId: 'implicitClose', line: jump.loc.start.line, column: jump.loc.start.column + 1, partOf: site });
  }
  sites.sort((a, b) => a.line - b.line || a.column - b.column);
  return { sites, sourceCode: linter.getSourceCode()!, parseError: fatal ? `${fatal.line}:${fatal.column} ${fatal.message}` : undefined };
}
