// A long-lived ESLint process (an editor's server, eslint_d) must see the helper module `drainguard fix` writes while
// it runs: the rule's suggestion then imports it instead of pasting its own copy.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../../rules/index.js';
import { helperModuleText } from '../../../rules/fix/helper-module.js';
import { detectStyle } from '../../../rules/fix/style.js';
import { drainBounds } from '../../../rules/contract/drain-options.js';

const code = `export async function read(url) {
  const reader = (await fetch(url)).body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.includes('[DONE]')) {
      await reader.cancel();
      return;
    }
  }
}
`;

/** The file's text after the rule's first suggestion. */
function suggested(linter: Linter, file: string): string {
  const [message] = linter.verify(code, [{ plugins: { drainguard: plugin }, rules: { 'drainguard/no-early-stream-close': 'error' } }], file);
  const fix = message.suggestions![0].fix;
  return code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);
}

describe('the helper module the suggestion imports', () => {
  it('is looked up again on every lint of one process: written between two lints, the second suggestion imports it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'drainguard-lookup-'));
    mkdirSync(path.join(dir, '.git'));
    const file = path.join(dir, 'read.js');
    const linter = new Linter({ cwd: dir });

    const before = suggested(linter, file);
    expect(before.startsWith('// Past these limits a drain gives up and closes as the code did (0: no limit).\n')).toBe(true);
    expect(before).not.toContain("from './drain-body.js'");

    writeFileSync(path.join(dir, 'drain-body.js'), helperModuleText(['drainReader'], detectStyle(code, false), drainBounds()));
    const after = suggested(linter, file);
    expect(after).toBe(`import { drainReader } from './drain-body.js';

export async function read(url) {
  const reader = (await fetch(url)).body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.includes('[DONE]')) {
      void drainReader(reader, () => reader.cancel());
      return;
    }
  }
}
`);
  });
});
