import { cpSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as sources from '../../../cli/sources.js';
import { ROOT, parseJson, resultFor, runCli, tempProject, type LintResultJson } from '../../../cli/helpers.js';

/** Messages per file, keyed by path relative to `dir`, without the text (it is the same code). */
function messagesByFile(results: LintResultJson[], dir: string): Record<string, unknown[]> {
  const byFile: Record<string, unknown[]> = {};
  for (const result of results) {
    byFile[path.relative(dir, result.filePath)] = result.messages.map(({ ruleId, line, column, endLine, endColumn, message, fatal }) => ({
      ruleId, line, column, endLine, endColumn, message, fatal,
    }));
  }
  return byFile;
}

/** Every test source from sources.ts, as files with the extension their syntax needs. */
function sourceFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, value] of Object.entries(sources)) {
    if (typeof value !== 'string') continue;
    const ext = name.endsWith('_TSX') ? 'tsx' : name.endsWith('_TS') ? 'ts' : 'js';
    files[`test-sources/${name.toLowerCase()}.${ext}`] = value;
  }
  return files;
}

describe('the CLI pre-filter', () => {
  it('gives a file without close words a clean result without parsing it', async () => {
    const dir = tempProject({ 'math.js': sources.NO_CLOSE_WORDS_JS, 'broken.js': sources.UNPARSABLE_NO_CLOSE_WORDS_JS });
    const run = await runCli(['lint', '--format', 'json'], dir);
    expect(run.code).toBe(0);
    const results = parseJson(run);
    expect(resultFor(results, path.join(dir, 'math.js'))).toEqual({
      filePath: path.join(dir, 'math.js'),
      messages: [],
      suppressedMessages: [],
      errorCount: 0,
      fatalErrorCount: 0,
      warningCount: 0,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
      usedDeprecatedRules: [],
    });
    // Proof that it was not parsed: the syntax error of a file the pre-filter skips is not seen
    // (it is, with DRAINGUARD_NO_PREFILTER=1).
    expect(resultFor(results, path.join(dir, 'broken.js')).messages).toEqual([]);
    const parsed = parseJson(await runCli(['lint', '--format', 'json'], dir, { DRAINGUARD_NO_PREFILTER: '1' }));
    expect(resultFor(parsed, path.join(dir, 'broken.js')).fatalErrorCount).toBe(1);
  });

  it('never drops a report: fixtures/, examples/, rule fixtures and the test sources lint the same with and without it', async () => {
    const dir = tempProject(sourceFiles());
    for (const folder of ['fixtures', 'examples', 'test/rules/fixtures']) {
      if (existsSync(path.join(ROOT, folder))) cpSync(path.join(ROOT, folder), path.join(dir, folder), { recursive: true });
    }
    const args = ['lint', '--format', 'json', '.'];
    const [filtered, unfiltered] = await Promise.all([runCli(args, dir), runCli(args, dir, { DRAINGUARD_NO_PREFILTER: '1' })]);
    const withFilter = messagesByFile(parseJson(filtered), dir);
    const withoutFilter = messagesByFile(parseJson(unfiltered), dir);

    // Files the pre-filter skips may hide their own syntax errors, never a report of the rule.
    for (const file of Object.keys(withoutFilter)) {
      if (withFilter[file].length === 0) withoutFilter[file] = withoutFilter[file].filter((message) => !(message as { fatal?: boolean }).fatal);
    }
    expect(withFilter).toEqual(withoutFilter);
    const reports = Object.values(withFilter).flat().filter((message) => (message as { ruleId: string | null }).ruleId !== null);
    expect(reports.length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(withFilter).length).toBeGreaterThanOrEqual(readdirSync(path.join(dir, 'test-sources')).length);
  });
});
