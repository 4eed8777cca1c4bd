import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-early-stream-close.js';

const ruleTester = new RuleTester();
ruleTester.run('no-early-stream-close (smoke)', rule as never, {
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
      errors: [{ messageId: 'implicitClose', line: 4, column: 40 }],
    },
  ],
});
