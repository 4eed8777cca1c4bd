// Probe rules for the analysis's unit tests: `lintWith` lints `code` (TypeScript) with a rule made of the listeners
// given, which collect what the test asks. `familiesFound` asks the file's stream resolver each question about the
// arguments of the calls named after it (`probe(res)`) and about each `for await` (`loop`); a family is shown as the
// text of the request call it comes from, or as the resolver's string for a response known only by its name.
import tsParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { Linter } from 'eslint';
import { expect } from 'vitest';
import type { Node } from '../../../rules/javascript/ast.js';
import type { Family } from '../../../rules/core/effect.js';
import { StreamResolver } from '../../../rules/javascript/streams.js';
import { asESLintRule } from '../../../rules/eslint-types.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export function lintWith(code: string, listeners: (sourceCode: SourceCode) => TSESLint.RuleListener): void {
  const rule: TSESLint.RuleModule<never, []> = {
    defaultOptions: [],
    meta: { type: 'problem', schema: [], messages: {} },
    create: (context) => listeners(context.sourceCode),
  };
  const config = { files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { test: { rules: { probe: asESLintRule(rule) } } }, rules: { 'test/probe': 'error' as const } };
  expect(new Linter().verify(code, [config], 'file.ts')).toEqual([]);
}

export interface Questions {
  /** By the name of the probe call whose arguments they are asked about. */
  calls: Record<string, (argument: Node) => Family | null>;
  loop?: (loop: TSESTree.ForOfStatement) => Family | null;
}

export function familiesFound(code: string, questions: (streams: StreamResolver) => Questions): Array<[string, string | null]> {
  const found: Array<[string, string | null]> = [];
  lintWith(code, (sourceCode) => {
    const { calls, loop } = questions(new StreamResolver({ getScope: (node) => sourceCode.getScope(node), visitorKeys: sourceCode.visitorKeys }));
    const show = (family: Family | null): string | null => {
      if (family === null || typeof family === 'string') return family;
      return 'range' in family ? sourceCode.getText(family as Node) : '(object)';
    };
    return {
      CallExpression(node: TSESTree.CallExpression) {
        if (node.callee.type !== AST_NODE_TYPES.Identifier || !Object.hasOwn(calls, node.callee.name)) return;
        const name = node.callee.name;
        for (const argument of node.arguments) found.push([name, show(calls[name](argument))]);
      },
      'ForOfStatement[await=true]'(node: TSESTree.ForOfStatement) {
        if (loop) found.push(['loop', show(loop(node))]);
      },
    };
  });
  return found;
}
