import { createRequire } from 'node:module';
import type { Scope } from 'eslint';

/** eslint-scope's analysis options (its `AnalyzeOptions`). */
interface AnalyzeOptions {
  optimistic: boolean;
  ignoreEval: boolean;
  nodejsScope: boolean;
  impliedStrict: boolean;
  ecmaVersion: number;
  sourceType: 'module' | 'script' | 'commonjs';
  childVisitorKeys: null;
  fallback: (node: object) => string[];
  jsx: boolean;
}

interface EslintScope {
  ScopeManager: new (options: AnalyzeOptions) => Scope.ScopeManager;
  Referencer: new (options: AnalyzeOptions, scopeManager: Scope.ScopeManager) => { visit(node: object | null | undefined): void };
}

interface EslintVisitorKeys {
  KEYS: Readonly<Record<string, readonly string[] | undefined>>;
  getKeys(this: void, node: object): readonly string[];
}

// As the installed ESLint resolves them, and as CommonJS, as it requires them: the copies its own analysis runs.
const requireAsESLint = createRequire(createRequire(import.meta.url).resolve('eslint'));
const { Referencer, ScopeManager } = requireAsESLint('eslint-scope') as EslintScope;
const { KEYS, getKeys } = requireAsESLint('eslint-visitor-keys') as EslintVisitorKeys;

/** What ESLint reads from a file's language options to analyze its scopes (as its parser options carry them). */
export interface JavaScriptScopeOptions {
  ecmaVersion?: number | 'latest';
  sourceType?: 'module' | 'script' | 'commonjs';
  ecmaFeatures?: { globalReturn?: boolean; impliedStrict?: boolean; jsx?: boolean };
}

/**
 * eslint-scope's Referencer, given ESLint's visitor keys as its fallback rather than as `childVisitorKeys`. Given
 * `childVisitorKeys`, each visitor eslint-scope creates (one per declared pattern) first copies estraverse's keys and
 * ESLint's into a new object: about a third of a small file's lint once warm. As the fallback, ESLint's keys serve
 * the node types estraverse does not know. Of the types both know, only `ImportExpression` has keys that differ
 * (`options`) and no handler in the Referencer: it gets one here, with ESLint's keys. The module's test checks both
 * facts against the installed packages.
 */
class ReferencerWithESLintKeys extends Referencer {
  ImportExpression(node: object): void {
    for (const key of KEYS.ImportExpression ?? []) {
      const child: unknown = Reflect.get(node, key);
      if (typeof child === 'object' && child !== null) this.visit(child);
    }
  }
}

function eslintKeysOf(node: object): string[] {
  const type: unknown = Reflect.get(node, 'type');
  return [...((typeof type === 'string' ? KEYS[type] : undefined) ?? getKeys(node))];
}

/**
 * The scopes ESLint gives a JavaScript file whose parser returns none (its `analyzeScope`, with the same options),
 * made without the per-pattern copies of the visitor keys.
 */
export function analyzeJavaScriptScopes(program: object, options: JavaScriptScopeOptions): Scope.ScopeManager {
  const features = options.ecmaFeatures ?? {};
  const ecmaVersion = options.ecmaVersion ?? 5;
  const analyzeOptions: AnalyzeOptions = {
    optimistic: false,
    ignoreEval: true,
    nodejsScope: features.globalReturn === true,
    impliedStrict: features.impliedStrict === true,
    ecmaVersion: typeof ecmaVersion === 'number' ? ecmaVersion : 6,
    sourceType: options.sourceType ?? 'script',
    childVisitorKeys: null,
    fallback: eslintKeysOf,
    jsx: features.jsx === true,
  };
  const scopeManager = new ScopeManager(analyzeOptions);
  new ReferencerWithESLintKeys(analyzeOptions, scopeManager).visit(program);
  return scopeManager;
}
