import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../../rules/no-early-stream-close.js';
import { helperText } from '../../codemods/helpers.js';

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
          // The rewrite of `drainguard fix`; the helper's exact text is pinned by the fixtures.
          suggestions: [
            {
              messageId: 'drainInBackground',
              output: [
                'async function f(url) {',
                '  const res = await fetch(url);',
                '  const events = drainable(res.body, 1000);',
                '  for await (const chunk of events) {',
                "    if (chunk.type === 'message_stop') {",
                '      events.drainInBackground();',
                '      break;',
                '    }',
                '  }',
                '}',
                '',
                helperText('loop', 'drainable', { eol: '\n', unit: '  ', semi: ';', typescript: true }),
                '',
              ].join('\n'),
            },
          ],
        },
      ],
    },
  ],
});
