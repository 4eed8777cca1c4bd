// rules/parse-check.ts parseErrorOf: the parse the rule's suggestions must pass (espree for JavaScript, TypeScript's
// own parser for typescript-eslint), with the messages those parsers give.
import { describe, expect, it } from 'vitest';
import tseslint from 'typescript-eslint';
import { parseErrorOf, statementsApartCheck } from '../../rules/parse-check.js';

describe('parseErrorOf', () => {
  it('passes JavaScript that parses as a module, and names why other text does not', () => {
    expect(parseErrorOf('export async function f(r) { await r.cancel(); }\n', 'a.js')).toBeNull();
    expect(parseErrorOf('export function f(r) { await r.cancel(); }\n', 'a.js')).toBe('Cannot use keyword \'await\' outside an async function');
    expect(parseErrorOf('function f() { return (; }\n', 'a.mjs')).toBe('Unexpected token ;');
  });

  it('retries a .js file as a sloppy-mode script, as drainguard lint reads it, unless the host named its options', () => {
    const sloppy = 'with (scope) { run(); }\n';
    expect(parseErrorOf(sloppy, 'old.js')).toBeNull();
    expect(parseErrorOf(sloppy, 'old.js', { ecmaVersion: 'latest', sourceType: 'module' })).toBe("'with' in strict mode");
  });

  it('reads TypeScript with TypeScript, also through the host typescript-eslint parser, and JSX only in .tsx', () => {
    expect(parseErrorOf('export async function f(r: ReadableStreamDefaultReader<string>): Promise<void> { await r.cancel(); }\n', 'a.ts')).toBeNull();
    expect(parseErrorOf('const x: number = ;\n', 'a.ts')).toBe('Expression expected.');
    const host = { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } };
    expect(parseErrorOf('export const view = <div>{1}</div>;\n', 'a.tsx', host)).toBeNull();
    expect(parseErrorOf('export const view = <div>{1}</div>;\n', 'a.ts')).not.toBeNull();
  });

  it('passes TypeScript whose JSDoc does not parse (typescript-eslint reads no JSDoc without type information)', () => {
    expect(parseErrorOf('/** @param {string */\nexport const x = 1;\n', 'a.ts')).toBeNull();
    expect(parseErrorOf('/** @type {{a: } */\nexport const x = 1;\n', 'a.ts')).toBeNull();
  });

  it("keeps the usual parser's verdict where oxc-parser is stricter (a redeclaration is an early error to oxc, not to TypeScript's parse)", () => {
    expect(parseErrorOf('let a = 1;\nlet a = 2;\n', 'a.ts')).toBeNull();
    expect(parseErrorOf('let a = 1;\nlet a = 2;\n', 'a.js')).toBe("Identifier 'a' has already been declared");
  });

  it('hands a host parser the file path, as ESLint does (a parser may choose the language by it)', () => {
    const seen: unknown[] = [];
    const parser = {
      meta: { name: 'by-path' },
      parseForESLint(text: string, options: { filePath?: string }) {
        seen.push(options.filePath);
        if (!options.filePath?.endsWith('.ts')) throw new Error('not TypeScript');
        return { ast: { type: 'Program', body: [], sourceType: 'module', range: [0, text.length], loc: { start: { line: 1, column: 0 }, end: { line: 1, column: 0 } }, tokens: [], comments: [] } };
      },
    };
    expect(parseErrorOf('const x: number = 1;\n', '/src/a.ts', { parser })).toBeNull();
    expect(seen).toEqual(['/src/a.ts']);
  });
});

describe('statementsApartCheck', () => {
  it("names TypeScript's syntax check, with or without JSX, and nothing for other parsers or none", () => {
    expect(statementsApartCheck({ parser: tseslint.parser })).toBe('typescript');
    expect(statementsApartCheck({ parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } })).toBe('typescript-jsx');
    expect(statementsApartCheck({ ecmaVersion: 'latest', sourceType: 'module' })).toBeUndefined();
    expect(statementsApartCheck(undefined)).toBeUndefined();
  });
});
