/**
 * Checks the test data, not the rule: every expected error location in cases.ts must span exactly
 * a close site as the rule places reports — a close CallExpression (`x.cancel()`, `x.abort()`, …) for
 * `explicitClose`, a `break`/`return` statement for `implicitClose`. This keeps the expected
 * positions honest (derived from the code) without ever reading them off the rule's output.
 */
import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { invalid, typedInvalid, type ExpectedError } from './cases.js';
import { sdkShapeInvalid } from './cases-sdk-shapes.js';
import { foreignCodeInvalid } from './cases-foreign-code.js';
import { recallInvalid } from './cases-recall.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

type AnyNode = TSESTree.Node;

function nodesSpanning(program: AnyNode, error: ExpectedError): AnyNode[] {
  const found: AnyNode[] = [];
  const visit = (node: AnyNode): void => {
    const { start, end } = node.loc;
    if (
      start.line === error.line &&
      start.column + 1 === error.column &&
      end.line === error.endLine &&
      end.column + 1 === error.endColumn
    ) {
      found.push(node);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent' || key === 'loc' || key === 'range') continue;
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        if (child && typeof child === 'object' && typeof (child as AnyNode).type === 'string' && 'loc' in child) visit(child as AnyNode);
      }
    }
  };
  visit(program);
  return found;
}

function isCloseSite(node: AnyNode, messageId: ExpectedError['messageId']): boolean {
  if (messageId === 'implicitClose') return node.type === AST_NODE_TYPES.BreakStatement || node.type === AST_NODE_TYPES.ReturnStatement;
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  // The call of a helper that closes: `closeStream(status, controller)`, `this.stop()`.
  if (messageId === 'helperClose') return true;
  const callee = node.callee.type === AST_NODE_TYPES.ChainExpression ? node.callee.expression : node.callee;
  return callee.type === AST_NODE_TYPES.MemberExpression && (callee.property.type === AST_NODE_TYPES.Identifier || callee.property.type === AST_NODE_TYPES.PrivateIdentifier);
}

describe('expected locations in cases.ts span close sites', () => {
  for (const testCase of [...invalid, ...typedInvalid, ...sdkShapeInvalid, ...foreignCodeInvalid, ...recallInvalid]) {
    it(testCase.name, () => {
      const program = parse(testCase.code, { loc: true, range: true, jsx: testCase.filename?.endsWith('x') ?? false }) as unknown as AnyNode;
      for (const error of testCase.errors) {
        const nodes = nodesSpanning(program, error);
        const lines = testCase.code.split('\n');
        const text = lines[error.line - 1]?.slice(error.column - 1, error.endColumn - 1);
        expect(nodes.some((node) => isCloseSite(node, error.messageId)), `${error.messageId} at ${error.line}:${error.column}-${error.endColumn} spans ${JSON.stringify(text)}`).toBe(true);
      }
    });
  }
});
