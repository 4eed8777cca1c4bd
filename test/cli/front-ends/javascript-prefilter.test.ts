import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { prefilterFor, settled } from '../../../cli/front-ends/javascript-prefilter.js';
import plugin from '../../../rules/index.js';

// The CLI's pre-filter: every text below names `for await` or `__asyncValues`, so only the loop check decides.
const mayHoldImplicitClose = (text: string, filePath: string): boolean | Promise<boolean> => settled(prefilterFor()(text, filePath));

const reports = (text: string, filePath: string): number =>
  new Linter()
    .verify(text, [{ files: ['**/*.{js,ts,tsx}'], languageOptions: { parser: tsParser }, ...plugin.configs.recommended }], { filename: filePath })
    .filter((message) => message.ruleId === 'drainguard/no-early-stream-close').length;

/** A `for await` over a fetch body as TypeScript downlevels it to ES2017, with `statement` in its body. */
function DOWNLEVELED(statement: string): string {
  return [
    'async function read(url) {',
    '    var _a, e_1, _b, _c;',
    '    const response = await fetch(url);',
    '    try {',
    '        for (var _d = true, _e = __asyncValues(response.body), _f; _f = await _e.next(), _a = _f.done, !_a; _d = true) {',
    '            _c = _f.value;',
    '            _d = false;',
    '            const text = new TextDecoder().decode(_c);',
    `            ${statement}`,
    '        }',
    '    }',
    '    catch (e_1_1) { e_1 = { error: e_1_1 }; }',
    '    finally {',
    '        try {',
    '            if (!_d && !_a && (_b = _e.return)) await _b.call(_e);',
    '        }',
    '        finally { if (e_1) throw e_1.error; }',
    '    }',
    '}',
  ].join('\n');
}
const ASYNC_VALUES_HELPER = [
  'var __asyncValues = (this && this.__asyncValues) || function (o) {',
  '    if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");',
  '    var m = o[Symbol.asyncIterator], i;',
  '    return m ? m.call(o) : (o = typeof __values === "function" ? __values(o) : o[Symbol.iterator](), i = {}, verb("next"), verb("throw"), verb("return"), i[Symbol.asyncIterator] = function () { return this; }, i);',
  '    function verb(n) { i[n] = o[n] && function (v) { return new Promise(function (resolve, reject) { v = o[n](v), settle(resolve, reject, v.done, v.value); }); }; }',
  '    function settle(resolve, reject, d, v) { Promise.resolve(v).then(function(v) { resolve({ value: v, done: d }); }, reject); }',
  '};',
].join('\n');

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
  ['a string that looks like a loop with a break, and a real loop with a decorator outside it (the parse keeps the real loop only)', 'a.ts', "const s = 'for await (x of y) { break }';\nclass A { @dec m() {} }\nexport async function f(res: Response) { for await (const c of res.body!) { c; } }", false],
  ['a string that looks like a loop with a break, in a file that does not parse', 'a.ts', "const s = 'for await (x of y) { break }';\nexport async function f(res: Response) { for await (const c of res.body!) { c; } ", true],
  ['a loop with a break in a template string, a real loop without one', 'a.js', 'export const snippet = `for await (const chunk of stream) { if (chunk.done) break; }`;\nexport async function f(res) { for await (const c of res.body) { c; } }', false],
  ['a loop with a break in a CommonJS file (parsed as CommonJS)', 'a.cjs', 'module.exports = async function f(res) { for await (const c of res.body) { if (c.done) break; } };\nconst s = "for await (x of y) { break }";', true],
  ['a downleveled loop that returns on the terminator', 'a.js', DOWNLEVELED('if (text.includes("[DONE]")) return;'), true],
  ['a downleveled loop without a jump (its finally reads `_e.return` but calls nothing by that name)', 'a.js', DOWNLEVELED('console.log(text);'), false],
  ['the __asyncValues helper and a downleveled loop without a jump', 'a.js', `${ASYNC_VALUES_HELPER}\n${DOWNLEVELED('console.log(text);')}`, false],
  ['a downleveled loop with a jump only in a comment, a real one without', 'a.js', `// for (var _d = true, _e = __asyncValues(x), _f; ;) { return; }\n${DOWNLEVELED('console.log(text);')}`, false],
  ['a `for (var` loop that is not async iteration, with a break', 'a.js', 'var __asyncValues;\nfor (var i = 0; i < 3; i++) { break; }', false],
];

describe('the for-await token check of the CLI pre-filter', () => {
  it.each(cases)('%s', async (_name, filePath, text, expected) => {
    expect(await mayHoldImplicitClose(text, filePath)).toBe(expected);
  });

  it('never skips a file the rule reports on', async () => {
    for (const [, filePath, text] of cases) {
      if (reports(text, filePath) > 0) expect(await mayHoldImplicitClose(text, filePath)).toBe(true);
    }
    expect(reports(cases[0][2], 'a.ts')).toBe(1);
    expect(reports(DOWNLEVELED('if (text.includes("[DONE]")) return;'), 'a.js')).toBe(1);
  });

  it('looks for the same explicit-close evidence as the pre-filter', async () => {
    expect(await mayHoldImplicitClose("export async function f(r) { for await (const c of r) {} r['abort'](); }", 'a.js')).toBe(true);
    // `__asyncValues` alone is no close: only a downleveled loop whose body may jump out is.
    expect(await mayHoldImplicitClose('export async function f(r) { for await (const c of r) {} }\n__asyncValues;', 'a.js')).toBe(false);
  });
});
