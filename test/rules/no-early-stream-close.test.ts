import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { Linter, RuleTester as EslintRuleTester } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import rule from '../../rules/no-early-stream-close.js';
import { asESLintRule } from '../../rules/eslint-types.js';
import { invalid as baseInvalid, src, typedInvalid, typedValid, valid as baseValid, type InvalidCase, type ValidCase } from './cases.js';
import { sdkShapeInvalid, sdkShapeValid } from './cases-sdk-shapes.js';
import { foreignCodeInvalid, foreignCodeValid } from './cases-foreign-code.js';
import { recallInvalid, recallTypedValid, recallValid } from './cases-recall.js';
import { openBook } from './suggestions.js';
import { readFileSync } from 'node:fs';

const invalid = [...baseInvalid, ...sdkShapeInvalid, ...foreignCodeInvalid, ...recallInvalid];
const valid = [...baseValid, ...sdkShapeValid, ...foreignCodeValid, ...recallValid];
const typedValidCases = [...typedValid, ...recallTypedValid];

EslintRuleTester.describe = describe;
EslintRuleTester.it = it;
EslintRuleTester.itOnly = it.only;
// typescript-eslint's RuleTester hooks are set in test/setup/rule-tester.ts; afterAll is repeated for clarity.
RuleTester.afterAll = afterAll;

const eslintRule = asESLintRule(rule);

// The literal suggestions of each suite (test/rules/fixtures/suggestions/*.txt).
const syntaxBook = await openBook('typescript-parser');
const espreeBook = await openBook('espree');
const typedBook = await openBook('typed');

/**
 * The cases' files sit beside a helper module `drainguard fix` wrote (test/rules/fixtures/with-helper/drain-body.ts and
 * .js, every piece): the suggestions import it, so each expected suggestion is the case's own code with the import and
 * the rewritten site, not the helpers pasted in again. The helpers' own text is tested once (helper-text.test.ts).
 */
const WITH_HELPER = fileURLToPath(new URL('fixtures/with-helper/', import.meta.url));
const inHelperDir = (name: string): string => path.join(WITH_HELPER, name);

const toTs = (testCase: InvalidCase | ValidCase) => ({
  name: testCase.name,
  code: testCase.code,
  ...(testCase.options ? { options: testCase.options } : {}),
  filename: inHelperDir(testCase.filename ?? 'react.tsx'),
});

// ---------------------------------------------------------------------------------------------
// 1. Every case through @typescript-eslint/parser (syntax only, no type information).
// ---------------------------------------------------------------------------------------------
describe('@typescript-eslint/parser, syntax only', () => {
new RuleTester({
  languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
}).run('no-early-stream-close', rule, {
  valid: [
    ...valid.map(toTs),
    {
      name: 'useTypes without type information falls back to syntax (nothing to report here)',
      code: 'async function f(jobs) { for await (const job of jobs) { if (job.done) break; } }',
      options: [{ useTypes: true }],
    },
    {
      name: 'useTypes: a typed but unsuggestive variable is not a stream without type information',
      code: src(`
        declare function openStream(): ReadableStream<string>;
        async function f() {
          const s = openStream();
          for await (const chunk of s) {
            if (chunk === '[DONE]') break;
          }
        }
      `),
    },
  ],
  invalid: [
    // The default file name of this RuleTester (JSX enabled) is react.tsx.
    ...invalid.map((testCase) => ({ ...toTs(testCase), errors: syntaxBook.expect(testCase, inHelperDir(testCase.filename ?? 'react.tsx')) })),
    {
      name: 'useTypes without type information falls back to syntax (still reports)',
      code: 'async function f(res) { for await (const c of res.body) { if (c.done) break; } }',
      options: [{ useTypes: true }],
      filename: inHelperDir('react.tsx'),
      errors: syntaxBook.expect(
        { name: 'useTypes without type information', code: 'async function f(res) { for await (const c of res.body) { if (c.done) break; } }', errors: [{ messageId: 'implicitClose', line: 1, column: 71, endLine: 1, endColumn: 77 }] },
        inHelperDir('react.tsx'),
      ),
    },
    {
      name: 'useTypes off: a response-named variable is a stream by its name',
      code: src(`
        interface Job { finished: boolean; cancel(): void }
        declare const res: Job;
        if (res.finished) res.cancel();
      `),
      errors: [{ messageId: 'explicitClose', line: 3, column: 19, endLine: 3, endColumn: 31 }],
    },
  ],
});
syntaxBook.close();
});

// ---------------------------------------------------------------------------------------------
// 2. The plain JavaScript cases through ESLint's own RuleTester (espree).
// ---------------------------------------------------------------------------------------------
const toJs = (testCase: InvalidCase | ValidCase) => ({
  name: testCase.name,
  code: testCase.code,
  ...(testCase.options ? { options: testCase.options } : {}),
  filename: inHelperDir('case.js'),
});

const jsInvalid = invalid.filter((testCase) => testCase.js);
const jsValid = valid.filter((testCase) => testCase.js);

describe('espree (ESLint RuleTester)', () => {
new EslintRuleTester({ languageOptions: { ecmaVersion: 'latest', sourceType: 'module' } }).run('no-early-stream-close', eslintRule, {
  valid: jsValid.map(toJs),
  invalid: [
    ...jsInvalid.map((testCase) => ({ ...toJs(testCase), errors: espreeBook.expect(testCase, inHelperDir('case.js')) })),
    // Full message texts: the stream and the terminal event are named, and what to do is said.
    {
      name: 'message text: explicit close',
      code: src(`
        async function f(url) {
          const reader = (await fetch(url)).body.getReader();
          const { value } = await reader.read();
          if (value.type === 'message_stop') await reader.cancel();
        }
      `),
      errors: [
        {
          message:
            "`reader` is closed with `cancel()` after the terminal event `value.type === 'message_stop'` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).",
          line: 4,
          column: 44,
          endLine: 4,
          endColumn: 59,
          // Detached: nothing reads the reader after the close. The expected text (the helpers and the site) is in the file.
          suggestions: [
            {
              messageId: 'drainInBackground',
              output: readFileSync(new URL('fixtures/suggestions/reader-cancel.js.txt', import.meta.url), 'utf8').replace(/\n$/, ''),
            },
          ],
        },
      ],
    },
    {
      name: 'message text: implicit break',
      code: src(`
        async function f(res) {
          for await (const event of iterSSE(res)) {
            if (event.data === '[DONE]') break;
          }
        }
      `),
      errors: [
        {
          message:
            "`break` leaves `for await` over `iterSSE(res)` after the terminal event `event.data === '[DONE]'` before EOF: leaving the loop cancels the body and destroys the keep-alive connection. Keep reading to EOF with a time budget instead (`drainguard fix`).",
          line: 3,
          column: 34,
          endLine: 3,
          endColumn: 40,
        },
      ],
    },
    {
      name: 'message text: implicit return, downleveled loop names the iterated stream',
      code: src(`
        async function f(response) {
          var _a, _b, _c;
          for (var _d = true, _e = __asyncValues(response.body), _f; _f = await _e.next(), _a = _f.done, !_a; _d = true) {
            _c = _f.value;
            _d = false;
            const line = _c;
            if (line === 'event: end') return;
          }
        }
      `),
      errors: [
        {
          message:
            "`return` leaves `for await` over `response.body` after the terminal event `line === 'event: end'` before EOF: leaving the loop cancels the body and destroys the keep-alive connection. Keep reading to EOF with a time budget instead (`drainguard fix`).",
          line: 7,
          column: 32,
          endLine: 7,
          endColumn: 39,
        },
      ],
    },
  ],
});
espreeBook.close();
});

// ---------------------------------------------------------------------------------------------
// 3. useTypes: true with type information (project service over a fixture tsconfig).
// ---------------------------------------------------------------------------------------------
const typedRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'typed');

describe('useTypes: true with type information', () => {
new RuleTester({
  languageOptions: {
    parserOptions: {
      // file.ts of the fixture directory is in its tsconfig.json, so the project service types it.
      projectService: true,
      tsconfigRootDir: typedRoot,
    },
  },
}).run('no-early-stream-close', rule, {
  valid: typedValidCases.map((testCase) => ({ ...toTs(testCase), filename: path.join(typedRoot, testCase.filename ?? 'file.ts') })),
  invalid: typedInvalid.map((testCase) => ({
    ...toTs(testCase),
    filename: path.join(typedRoot, testCase.filename ?? 'file.ts'),
    errors: typedBook.expect(testCase, path.join(typedRoot, testCase.filename ?? 'file.ts'), { types: true, cwd: typedRoot }),
  })),
});
typedBook.close();
});

// ---------------------------------------------------------------------------------------------
// 4. A few direct Linter checks: one report per close site, stable across runs, many sites.
// ---------------------------------------------------------------------------------------------
describe('no-early-stream-close (Linter)', () => {
  const config = [{ plugins: { drainguard: { rules: { 'no-early-stream-close': eslintRule } } }, rules: { 'drainguard/no-early-stream-close': 'error' as const } }];

  it('reports each close site once even when it is reached from several completion branches', () => {
    const code = src(`
      async function f(res) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          if (value === '[DONE]' || value.type === 'message_stop' || value.finished) break;
        }
        await reader.cancel();
      }
    `);
    const messages = new Linter().verify(code, config);
    expect(messages.map((message) => [message.line, message.column, message.messageId])).toEqual([[8, 9, 'explicitClose']]);
  });

  // Speed is measured by `npm run bench:lint`, not asserted here; a path enumeration would not finish these.
  it('reports every site of a generated file with many functions, each on its own break', () => {
    const unit = (i: number) =>
      `async function f${i}(res) {\n  for await (const c of res.body) {\n    if (c.type === 'done' && c.index === ${i}) break;\n    if (c.error) { res.body.cancel(); }\n  }\n}\n`;
    const code = Array.from({ length: 300 }, (_, i) => unit(i)).join('');
    const messages = new Linter().verify(code, config);
    expect(messages.map((message) => [message.line, message.column])).toEqual(Array.from({ length: 300 }, (_, i) => [6 * i + 3, 44 + String(i).length]));
  });

  it('a deeply nested chain of completion tests does not blow up (no path enumeration)', () => {
    const depth = 60;
    let body = '';
    for (let i = 0; i < depth; i++) body += `if (v.k${i} === 'done') { a${i}(); } else { b${i}(); }\n`;
    const code = `async function f(res) {\n  const reader = res.body.getReader();\n  const { value: v } = await reader.read();\n${body}  reader.cancel();\n}\n`;
    const messages = new Linter().verify(code, config);
    expect(messages).toHaveLength(1);
    expect(messages[0].line).toBe(depth + 4);
  });
});
