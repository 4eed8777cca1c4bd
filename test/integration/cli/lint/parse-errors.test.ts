import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DRAINED_JS, EARLY_CANCEL_JS, EARLY_CANCEL_POSITION, EARLY_CANCEL_TSX, EARLY_CANCEL_TSX_POSITION, SLOPPY_SCRIPT_JS, UNPARSABLE_JS } from '../../../cli/sources.js';
import { RULE_ID, parseJson, resultFor, runCli, tempProject } from '../../../cli/helpers.js';

describe('drainguard lint on files that do not parse', () => {
  it('reports a fatal result for the broken file and still lints the good one (exit 1)', async () => {
    const dir = tempProject({ 'broken.js': UNPARSABLE_JS, 'stream.js': EARLY_CANCEL_JS });
    const run = await runCli(['lint', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    const results = parseJson(run);
    const broken = resultFor(results, path.join(dir, 'broken.js'));
    expect(broken.fatalErrorCount).toBe(1);
    // Line 2 is `  const reader = res.body.getReader(;`: the `;` after `(` is character 37.
    expect(broken.messages).toEqual([expect.objectContaining({ ruleId: null, fatal: true, severity: 2, line: 2, column: 37 })]);
    expect(broken.messages[0].message).toMatch(/^Parsing error: /);
    expect(resultFor(results, path.join(dir, 'stream.js')).messages).toEqual([expect.objectContaining({ ruleId: RULE_ID, ...EARLY_CANCEL_POSITION })]);
  });

  it('exits 1 for an unparsable file even when every other file is clean', async () => {
    const dir = tempProject({ 'broken.ts': 'const x: = ;\nreader.cancel();\n', 'drained.js': DRAINED_JS });
    const run = await runCli(['lint'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(path.join(dir, 'broken.ts'));
    expect(run.stdout).toMatch(/1:\d+ +error +Parsing error/);
  });

  it('parses TSX with JSX and sloppy-mode CommonJS .js files (retried as a script)', async () => {
    const dir = tempProject({ 'chat.tsx': EARLY_CANCEL_TSX, 'legacy.js': SLOPPY_SCRIPT_JS });
    const run = await runCli(['lint', '--format', 'json'], dir);
    const results = parseJson(run);
    expect(resultFor(results, path.join(dir, 'chat.tsx')).messages).toEqual([expect.objectContaining({ ruleId: RULE_ID, ...EARLY_CANCEL_TSX_POSITION })]);
    const legacy = resultFor(results, path.join(dir, 'legacy.js'));
    expect(legacy.fatalErrorCount).toBe(0);
    expect(legacy.messages.map((message) => message.ruleId)).toEqual([RULE_ID]);
  });
});
