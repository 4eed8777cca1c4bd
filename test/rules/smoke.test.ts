import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-early-stream-close.js';
import { readFileSync } from 'node:fs';

const ruleTester = new RuleTester();
ruleTester.run('no-early-stream-close (smoke)', rule, {
  valid: ['async function f(url) { const res = await fetch(url); await res.text(); }'],
  invalid: [
    {
      code: [
        'async function f(url) {',
        '  const res = await fetch(url);',
        '  for await (const chunk of res.body) {',
        "    if (chunk.type === 'message_stop') break;",
        '  }',
        '}',
      ].join('\n'),
      errors: [
        {
          messageId: 'implicitClose',
          line: 4,
          column: 40,
          // The rewrite of `drainguard fix` (the file's own copy of the helpers: no helper module is near it), literal in the file.
          suggestions: [
            {
              messageId: 'drainInBackground',
              output: readFileSync(new URL('fixtures/suggestions/for-await-break.ts.txt', import.meta.url), 'utf8').replace(/\n$/, ''),
            },
          ],
        },
      ],
    },
  ],
});
