// cli/engines/javascript-scopes.ts: the native parser's JavaScript scopes are the ones ESLint's own analysis gives the
// same tree (ESLint's Linter, once analyzing itself and once handed the scope manager), and the two facts the
// module relies on hold for the installed eslint-scope, esrecurse, estraverse and eslint-visitor-keys.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Linter, type Rule, type Scope } from 'eslint';
import { describe, expect, it } from 'vitest';
import { nativeParser } from '../../../cli/engines/native-parser.js';

const requireAsESLint = createRequire(createRequire(import.meta.url).resolve('eslint'));
const requireAsEslintScope = createRequire(requireAsESLint.resolve('eslint-scope'));
const requireAsEsrecurse = createRequire(requireAsEslintScope.resolve('esrecurse'));
const estraverseKeys = (requireAsEsrecurse('estraverse') as { VisitorKeys: Record<string, string[]> }).VisitorKeys;
const eslintKeys = (requireAsESLint('eslint-visitor-keys') as { KEYS: Record<string, string[]> }).KEYS;
const referencerPrototype = (requireAsESLint('eslint-scope') as { Referencer: { prototype: object } }).Referencer.prototype;

if (!('parseForESLint' in nativeParser)) throw new Error('the native parser has no parseForESLint');
const nativeParse = nativeParser;
const parseNatively = (text: string, options?: Linter.ParserOptions) => nativeParse.parseForESLint(text, options);

type Ranged = { range?: [number, number]; type: string };
const at = (node: unknown): string => {
  const { type, range } = node as Ranged;
  return `${type}@${range?.join('-') ?? '?'}`;
};

/** Every scope, variable, definition and reference, in order, as text. */
function describeScopes(scopeManager: Scope.ScopeManager): string[] {
  const reference = (ref: Scope.Reference) =>
    `${at(ref.identifier)} ${ref.identifier.type === 'Identifier' ? ref.identifier.name : ''} -> ${ref.resolved ? (ref.resolved.identifiers.length > 0 ? at(ref.resolved.identifiers[0]) : `global ${ref.resolved.name}`) : 'through'} ${ref.isRead() ? 'r' : ''}${ref.isWrite() ? 'w' : ''}${ref.init ? 'i' : ''}`;
  return scopeManager.scopes.flatMap((scope) => [
    `scope ${scope.type} ${at(scope.block)} strict=${scope.isStrict} upper=${scope.upper ? at(scope.upper.block) : '-'}`,
    ...scope.variables.map((variable) => `  var ${variable.name} defs=${variable.defs.map((def) => `${def.type}:${at(def.name)}`).join(',')} refs=${variable.references.map((ref) => at(ref.identifier)).join(',')}`),
    ...scope.references.map((ref) => `  ref ${reference(ref)}`),
    ...scope.through.map((ref) => `  through ${reference(ref)}`),
  ]);
}

/** The scopes ESLint's Linter sees in a file read by the native parser: with its scope manager, or analyzed by ESLint itself. */
function scopesSeen(text: string, filePath: string, analyzedBy: 'drainguard' | 'eslint'): string[] {
  let seen: string[] = [];
  const record: Rule.RuleModule = {
    create: (context) => ({ 'Program:exit': () => void (seen = describeScopes(context.sourceCode.scopeManager)) }),
  };
  const parser: Linter.Parser = analyzedBy === 'drainguard' ? nativeParser : { parseForESLint: (source: string, options?: Linter.ParserOptions) => ({ ast: parseNatively(source, options).ast }) };
  const cjs = filePath.endsWith('.cjs');
  const messages = new Linter({ configType: 'flat', cwd: '/' }).verify(
    text,
    [
      {
        files: ['**/*'],
        plugins: { scopes: { rules: { record } } },
        rules: { 'scopes/record': 'error' },
        languageOptions: { parser, ecmaVersion: 'latest', sourceType: cjs ? 'commonjs' : 'module', parserOptions: { ecmaFeatures: { jsx: !cjs } } },
      },
    ],
    { filename: filePath },
  );
  expect(messages).toEqual([]);
  return seen;
}

const SOURCES: Record<string, string> = {
  'import-options.mjs': `const attributes = { with: { type: 'json' } };\nexport const load = (url) => import(url, attributes);\n`,
  'modules.mjs': `import def, { a as b } from 'm' with { type: 'json' };\nexport * as ns from 'n';\nexport { b as c };\nexport default class K extends def { static { this.x = b; } #p = 1; m({ q = this.#p, ...rest } = {}, [r, , s] = []) { return q + r + s + rest; } }\n`,
  'patterns.cjs': `'use strict';\nconst { a, b: [c = a, ...d], ...e } = require('x');\nlet f; [f = c] = d;\nfor (const [k, v] of Object.entries(e)) { label: { if (k) break label; } try { f(v); } catch ({ message }) { f(message); } }\nmodule.exports = function g(h = g, ...i) { return arguments.length + h + i; };\nreturn f;\n`,
  'jsx.js': `import { useState } from 'react';\nexport function C({ items }) { const [n, setN] = useState(0); return <ul onClick={() => setN(n + 1)}>{items.map((item) => <li key={item.id}>{item.name}</li>)}<Other.Part {...{ n }} /></ul>; }\n`,
  'classic.js': `var x = 1; function f() { var x = x + 1; eval('x'); return typeof y === 'undefined' ? x : y; }\nf.call(null, ...[x]);\n`,
};

describe('analyzeJavaScriptScopes (through the native parser)', () => {
  it('gives ESLint the scopes its own analysis gives the same tree', () => {
    for (const [name, text] of Object.entries(SOURCES)) {
      const filePath = `/p/${name}`;
      const expected = scopesSeen(text, filePath, 'eslint');
      expect(expected.length, name).toBeGreaterThan(3);
      expect(scopesSeen(text, filePath, 'drainguard'), name).toEqual(expected);
    }
  });

  it('counts the read of a variable passed as import() options (ESLint keys ImportExpression; estraverse does not)', () => {
    const scopes = scopesSeen(SOURCES['import-options.mjs'], '/p/import-options.mjs', 'drainguard');
    expect(scopes.find((line) => line.startsWith('  var attributes'))).toBe('  var attributes defs=Variable:Identifier@6-16 refs=Identifier@6-16,Identifier@88-98');
  });

  it('gives the same scopes on the JavaScript fixtures', () => {
    const fixtures = path.join(import.meta.dirname, '../../../fixtures');
    const files = readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(?:js|mjs|cjs)$/.test(file) && !file.includes('expected'));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = readFileSync(path.join(fixtures, file), 'utf8');
      expect(scopesSeen(text, `/p/${path.basename(file)}`, 'drainguard'), file).toEqual(scopesSeen(text, `/p/${path.basename(file)}`, 'eslint'));
    }
  });
});

describe('what the Referencer with ESLint keys relies on', () => {
  it('of the node types estraverse and ESLint both key, only ImportExpression differs without a Referencer handler', () => {
    const differing = Object.keys(estraverseKeys).filter((type) => type in eslintKeys && JSON.stringify(estraverseKeys[type]) !== JSON.stringify(eslintKeys[type]));
    expect(differing.filter((type) => !(type in referencerPrototype))).toEqual(['ImportExpression']);
    expect(eslintKeys.ImportExpression).toEqual(['source', 'options']);
  });
});
