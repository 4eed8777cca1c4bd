// The robustness sweep of bench/robustness.mjs (issue 36): 50,000 modules, three 10 MB bundles, a file over the size
// limit, latin-1, Windows-1252, UTF-16 and binary files, names with spaces, accents and a newline, a FIFO and symbolic
// link loops, through every engine. Each run must end (exit 1) with every early close at its place and every file it
// cannot check reported with its reason, the JSON of every engine the same, and the SARIF with a notification per such
// file. The times and peak memory it prints are recorded in bench/RESULTS.md by `npm run bench:robustness -- --record`.
import { expect, it } from 'vitest';
import { sweep } from '../../bench/robustness.mjs';

it('lint ends every run over the hostile tree with every result, the same through each engine', () => {
  const { ok, rows } = sweep();
  expect(ok, rows.join('\n')).toBe(true);
}, 3_600_000);
