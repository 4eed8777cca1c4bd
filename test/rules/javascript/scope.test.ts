// rules/javascript/scope.ts: name lookups out through the enclosing scopes. The probe rule asks about each
// `probe(...)` call: what its identifier arguments name there, and which variables are visible there.
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { ScopeType } from '@typescript-eslint/scope-manager';
import { describe, expect, it } from 'vitest';
import { variableNamed, variablesInScope } from '../../../rules/javascript/scope.js';
import { lintWith } from './probe.js';

const code = `const shared = 1;
function outer(res: Response) {
  const shared = 2;
  probe(shared, res, missing);
  {
    let res = 3;
    probe(res, shared);
  }
}
probe(shared);
`;

describe('variableNamed', () => {
  it('finds the nearest declaration of a name outwards, and nothing for an undeclared name', () => {
    const found: string[] = [];
    lintWith(code, (sourceCode) => ({
      'CallExpression[callee.name="probe"]'(call: TSESTree.CallExpression) {
        for (const argument of call.arguments) {
          if (argument.type !== AST_NODE_TYPES.Identifier) continue;
          const def = variableNamed(argument.name, sourceCode.getScope(call))?.defs[0];
          found.push(`${call.loc.start.line}: ${argument.name} -> ${def ? `${def.type} at line ${def.name.loc.start.line}` : 'none'}`);
        }
      },
    }));
    expect(found).toEqual([
      '4: shared -> Variable at line 3',
      '4: res -> Parameter at line 2',
      '4: missing -> none',
      '7: res -> Variable at line 6',
      '7: shared -> Variable at line 3',
      '10: shared -> Variable at line 1',
    ]);
  });
});

describe('variablesInScope', () => {
  it("lists a scope's variables and then those of each scope around it, innermost first, the global scope's last", () => {
    const found: string[][] = [];
    const globalsLast: boolean[] = [];
    lintWith(code, (sourceCode) => ({
      'CallExpression[callee.name="probe"]'(call: TSESTree.CallExpression) {
        const variables = variablesInScope(sourceCode.getScope(call));
        const firstGlobal = variables.findIndex((variable) => variable.scope.type === ScopeType.global);
        found.push(variables.slice(0, firstGlobal).map((variable) => variable.name));
        globalsLast.push(firstGlobal > 0 && variables.slice(firstGlobal).every((variable) => variable.scope.type === ScopeType.global));
      },
    }));
    expect(found).toEqual([
      ['arguments', 'res', 'shared', 'shared', 'outer'],
      ['res', 'arguments', 'res', 'shared', 'shared', 'outer'],
      ['shared', 'outer'],
    ]);
    // The global scope holds the built-ins (`Math`, …), after every other scope's variables.
    expect(globalsLast).toEqual([true, true, true]);
  });
});
