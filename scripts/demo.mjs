// `npm run demo`: shows drainguard on the bundled examples/. A simple linear script;
// each step prints what it ran and its output, and the demo goes on whatever the step's
// exit code (lint exits 1 here: the examples contain early closes on purpose).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = 'dist/cli.js';

function step(title, args) {
  console.log(`\n=== ${title}\n$ node ${args.join(' ')}`);
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  console.log(`(exit code ${run.status})`);
  return run;
}

if (!existsSync(`${root}/${cli}`)) step('build', ['scripts/build.mjs']);

// 1. Lint the examples: three early closes are reported, the drained client is clean.
step('drainguard lint examples', [cli, 'lint', 'examples']);

// 2. The MCP tool call's fix, shown as a diff and not written (--dry --print): the helper module it would create,
// and the abort that becomes a bounded drain of the message iterator, which that same abort still ends.
step('drainguard fix --dry --print examples/mcp-tool-call.ts', [cli, 'fix', '--dry', '--print', 'examples/mcp-tool-call.ts']);

// 3. The proof: connections the server counts for 20 sequential calls, before and after the rewrite.
step('connections counted by a local server: early close vs. the codemod rewrite vs. a hand-drained client', [
  'bench/keepalive.mjs',
  '--calls',
  '20',
]);
