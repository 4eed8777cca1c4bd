import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EARLY_CANCEL_JS, EARLY_CANCEL_POSITION, EARLY_CANCEL_TS, INFERRED_STREAM_POSITION, INFERRED_STREAM_TS } from '../../../cli/sources.js';
import { RULE_ID, parseJson, resultFor, runCli, tempProject } from '../../../cli/helpers.js';

const TSCONFIG = JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, lib: ['ES2022', 'DOM'] }, include: ['src'] });

describe('drainguard lint --types', () => {
  it('uses type information for a TS file outside any tsconfig (default program)', async () => {
    const dir = tempProject({ 'inferred.ts': INFERRED_STREAM_TS, 'stream.ts': EARLY_CANCEL_TS, 'stream.js': EARLY_CANCEL_JS });

    const syntaxOnly = await runCli(['lint', '--format', 'json'], dir);
    expect(resultFor(parseJson(syntaxOnly), path.join(dir, 'inferred.ts')).messages).toEqual([]);

    const typed = await runCli(['lint', '--types', '--format', 'json'], dir);
    expect(typed.code).toBe(1);
    expect(typed.stderr).toBe('');
    const results = parseJson(typed);
    expect(resultFor(results, path.join(dir, 'inferred.ts')).messages).toEqual([expect.objectContaining({ ruleId: RULE_ID, ...INFERRED_STREAM_POSITION })]);
    expect(resultFor(results, path.join(dir, 'stream.ts')).messages).toEqual([expect.objectContaining({ ruleId: RULE_ID, ...EARLY_CANCEL_POSITION })]);
    expect(resultFor(results, path.join(dir, 'stream.js')).messages).toEqual([expect.objectContaining({ ruleId: RULE_ID, ...EARLY_CANCEL_POSITION })]);
  });

  it('uses the nearest tsconfig.json through the project service, and defaults for files it excludes', async () => {
    const dir = tempProject({ 'tsconfig.json': TSCONFIG, 'src/inferred.ts': INFERRED_STREAM_TS, 'scripts/inferred.ts': INFERRED_STREAM_TS });
    const run = await runCli(['lint', '--types', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    const results = parseJson(run);
    for (const file of ['src/inferred.ts', 'scripts/inferred.ts']) {
      const result = resultFor(results, path.join(dir, file));
      expect(result.fatalErrorCount, file).toBe(0);
      expect(result.messages, file).toEqual([expect.objectContaining({ ruleId: RULE_ID, ...INFERRED_STREAM_POSITION })]);
    }
  });
});
