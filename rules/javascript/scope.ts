import type { TSESLint } from '@typescript-eslint/utils';

// Name lookups through ESLint's scope manager, on its own types: the one walk out through enclosing scopes.

type Scope = TSESLint.Scope.Scope;
type Variable = TSESLint.Scope.Variable;

/** The variable `name` names in `scope`: declared there or in the nearest scope around it. */
export function variableNamed(name: string, scope: Scope): Variable | null {
  for (let current: Scope | null = scope; current; current = current.upper) {
    const variable = current.set.get(name);
    if (variable) return variable;
  }
  return null;
}

/** Every variable visible in `scope`: its own and those of the scopes around it, innermost first. */
export function variablesInScope(scope: Scope): Variable[] {
  const variables: Variable[] = [];
  for (let current: Scope | null = scope; current; current = current.upper) variables.push(...current.variables);
  return variables;
}
