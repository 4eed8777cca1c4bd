import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { mayHoldImplicitClose } from '../../cli/for-await-check.js';
import plugin from '../../rules/index.js';

const reports = (text: string, filePath: string): number =>
  new Linter()
    .verify(text, [{ files: ['**/*.{js,ts,tsx}'], languageOptions: { parser: tsParser }, ...plugin.configs.recommended }], { filename: filePath })
    .filter((message) => message.ruleId === 'drainguard/no-early-stream-close').length;

const cases: Array<[string, string, string, boolean]> = [
  ['a break in the body', 'a.ts', "export async function f(r: Response) { for await (const c of r.body!) { if (c === '[DONE]') break; } }", true],
  ['a return in the body', 'a.js', 'export async function f(res) { for await (const c of res.body) { if (c.done) return c; } }', true],
  ['no jump in the body', 'a.ts', 'export async function* f(res: Response) { for await (const c of res.body!) { yield c; } return 1; }', false],
  ['for await only in a comment', 'a.js', '// for await (const x of y) { break; }\nexport const a = 1;', false],
  ['for await only in a string', 'a.js', "export const a = 'for await (x of y) { break }';", false],
  ['a template literal with ${} in the body', 'a.ts', 'export async function f(res: Response) { for await (const c of res.body!) { console.log(`${c}}`); } return; }', false],
  ['a jump inside ${} of a template in the body', 'a.ts', 'export async function f(res: Response) { for await (const c of res.body!) { console.log(`${(() => { return c; })()}`); } }', true],
  ['a body that is not a block', 'a.js', 'export async function f(res) { for await (const c of res.body) console.log(c); }', true],
  ['a close method written in the file', 'a.js', 'export async function f(r) { for await (const c of r) {} r.cancel(); }', true],
  ['a JSX file', 'a.tsx', 'export async function f(res: Response) { for await (const c of res.body!) { console.log(<p>{c}</p>); } }', true],
  ['text the tokenizer rejects outside every loop (a decorator)', 'a.ts', 'class A { @dec m() {} }\nexport async function f(res: Response) { for await (const c of res.body!) { c; } }', false],
  ['text the tokenizer rejects in a loop body (a decorator)', 'a.ts', 'export async function f(res: Response) { for await (const c of res.body!) { class A { @dec m() {} } } }', true],
  ['a JSDoc loop with a break, a real loop without one', 'a.ts', '/**\n * for await (const page of list()) { if (page.last) break; }\n */\nexport async function f(res: Response) { for await (const c of res.body!) { c; } }', false],
  ['a JSDoc loop without a break, a real loop with one', 'a.ts', "/**\n * for await (const page of list()) { page; }\n */\nexport async function f(res: Response) { for await (const c of res.body!) { if (c === '[DONE]') break; } }", true],
  ['a string that looks like a loop with a break, and a real loop with a decorator outside it', 'a.ts', "const s = 'for await (x of y) { break }';\nclass A { @dec m() {} }\nexport async function f(res: Response) { for await (const c of res.body!) { c; } }", true],
];

describe('the for-await token check of the CLI pre-filter', () => {
  it.each(cases)('%s', (_name, filePath, text, expected) => {
    expect(mayHoldImplicitClose(text, filePath)).toBe(expected);
  });

  it('never skips a file the rule reports on', () => {
    for (const [, filePath, text] of cases) {
      if (reports(text, filePath) > 0) expect(mayHoldImplicitClose(text, filePath)).toBe(true);
    }
    expect(reports(cases[0][2], 'a.ts')).toBe(1);
  });

  it('looks for the same explicit-close evidence as the pre-filter', () => {
    expect(mayHoldImplicitClose("export async function f(r) { for await (const c of r) {} r['abort'](); }", 'a.js')).toBe(true);
    expect(mayHoldImplicitClose('export async function f(r) { for await (const c of r) {} }\n__asyncValues;', 'a.js')).toBe(true);
  });
});
