import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import packageJson from '../../../../package.json' with { type: 'json' };
import plugin from '../../../../rules/index.js';
import {
  EARLY_CANCEL_JS,
  EARLY_CANCEL_POSITION,
  FOR_AWAIT_BREAK_JS,
  FOR_AWAIT_BREAK_POSITION,
  NO_CLOSE_WORDS_JS,
  UNPARSABLE_JS,
  UNPARSABLE_NO_CLOSE_WORDS_JS,
} from '../../../cli/sources.js';
import { CLI, ROOT, RULE_ID, parseJson, resultFor, runCli, tempProject } from '../../../cli/helpers.js';
import { sarifValidator } from '../../../cli/sarif-schema.js';

const ANSI = /\u001b\[/;

describe('drainguard lint --format stylish (default)', () => {
  it('prints ESLint stylish lines with the line and column of the close', async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });
    const run = await runCli(['lint'], dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('');
    expect(lines[1]).toBe(path.join(dir, 'stream.js'));
    const { line, column } = EARLY_CANCEL_POSITION;
    expect(lines[2]).toMatch(new RegExp(`^  ${line}:${column}  error  \`reader\` .*cancel\\(\\).*  drainguard/no-early-stream-close$`));
    expect(lines.slice(3)).toEqual(['', '✖ 1 problem (1 error, 0 warnings)', '']);
    expect(run.stdout).not.toMatch(ANSI);
  });

  it('reports several files, sorted by path, with aligned columns', async () => {
    const dir = tempProject({ 'b/stream.js': EARLY_CANCEL_JS, 'a/events.js': FOR_AWAIT_BREAK_JS });
    const run = await runCli(['lint', '.'], dir);
    expect(run.code).toBe(1);
    const files = run.stdout.split('\n').filter((line) => line.startsWith('/'));
    expect(files).toEqual([path.join(dir, 'a/events.js'), path.join(dir, 'b/stream.js')]);
    expect(run.stdout).toContain(`  ${FOR_AWAIT_BREAK_POSITION.line}:${FOR_AWAIT_BREAK_POSITION.column}  error  \`break\``);
    expect(run.stdout).toContain('✖ 2 problems (2 errors, 0 warnings)');
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('colors on a terminal, but not with NO_COLOR', () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });
    const onTty = (env: NodeJS.ProcessEnv): string =>
      spawnSync('script', ['-qec', `"${process.execPath}" "${CLI}" lint`, '/dev/null'], {
        cwd: dir,
        encoding: 'utf8',
        // Node reports no colours on a terminal when CI is set, so the terminal here is a developer's one.
        env: { ...process.env, FORCE_COLOR: undefined, CI: undefined, TERM: 'xterm-256color', ...env },
      }).stdout;
    expect(onTty({})).toMatch(ANSI);
    const plain = onTty({ NO_COLOR: '1' });
    expect(plain).toContain('9:13  error');
    expect(plain).not.toMatch(ANSI);
  });
});

describe('the summary of a stylish run (stderr)', () => {
  const files = {
    'a/stream.js': EARLY_CANCEL_JS,
    'a/events.mjs': FOR_AWAIT_BREAK_JS,
    'b/math.js': NO_CLOSE_WORDS_JS,
    'b/broken.js': UNPARSABLE_JS,
    'b/skipped.js': UNPARSABLE_NO_CLOSE_WORDS_JS,
  };

  it('counts the files found, the files parsed, the early closes and the files that do not parse', async () => {
    const dir = tempProject(files);
    const run = await runCli(['lint'], dir);
    expect(run.code).toBe(1);
    // math.js and skipped.js hold no close method name and no for await: found, not parsed.
    expect(run.stderr).toBe('drainguard lint: 5 files found, 3 parsed, 2 early closes, 1 file that does not parse.\nnext: drainguard fix rewrites them where you maintain the code; for an SDK you only call, drainguard/undici (Node) and drainguard-httpx (Python) keep its connections with no source change\n');
    expect(run.stdout).toContain('✖ 3 problems (3 errors, 0 warnings)');
    expect(run.stdout).not.toContain('drainguard lint:');
  });

  it('counts every file as parsed without the pre-filter, and a path given explicitly alone', async () => {
    const dir = tempProject(files);
    const everything = await runCli(['lint'], dir, { DRAINGUARD_NO_PREFILTER: '1' });
    expect(everything.stderr).toBe('drainguard lint: 5 files found, 5 parsed, 2 early closes, 2 files that do not parse.\nnext: drainguard fix rewrites them where you maintain the code; for an SDK you only call, drainguard/undici (Node) and drainguard-httpx (Python) keep its connections with no source change\n');
    // A file named explicitly is parsed even without a close word in it.
    const one = await runCli(['lint', 'b/math.js'], dir);
    expect(one).toEqual({ code: 0, stdout: '', stderr: 'drainguard lint: 1 file found, 1 parsed, 0 early closes.\n' });
  });

  it('is not written for json and sarif, whose output is read by programs', async () => {
    const dir = tempProject(files);
    for (const format of ['json', 'sarif']) {
      const run = await runCli(['lint', '--format', format], dir);
      expect(run.code, format).toBe(1);
      expect(run.stderr, format).toBe('');
    }
  });
});

describe('drainguard lint --format json', () => {
  it("prints ESLint's JSON formatter output with exact positions", async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS, 'events.mjs': FOR_AWAIT_BREAK_JS });
    const run = await runCli(['lint', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    const results = parseJson(run);
    expect(results.map((result) => result.filePath)).toEqual([path.join(dir, 'events.mjs'), path.join(dir, 'stream.js')]);

    const [cancel] = resultFor(results, path.join(dir, 'stream.js')).messages;
    expect(cancel).toMatchObject({ ruleId: RULE_ID, severity: 2, ...EARLY_CANCEL_POSITION });
    expect(cancel.message).toContain('cancel()');

    const [implicit] = resultFor(results, path.join(dir, 'events.mjs')).messages;
    expect(implicit).toMatchObject({ ruleId: RULE_ID, severity: 2, ...FOR_AWAIT_BREAK_POSITION });
    expect(implicit.message).toContain('for await');
  });

  it('has the keys and counts of an ESLint result, for reported and clean files', async () => {
    const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS, 'math.js': NO_CLOSE_WORDS_JS });
    const run = await runCli(['lint', '-f', 'json'], dir);
    const results = JSON.parse(run.stdout) as Record<string, unknown>[];
    const common = ['filePath', 'messages', 'suppressedMessages', 'errorCount', 'fatalErrorCount', 'warningCount', 'fixableErrorCount', 'fixableWarningCount'];
    expect(Object.keys(results[0])).toEqual([...common, 'usedDeprecatedRules']);
    expect(Object.keys(results[1])).toEqual([...common, 'source', 'usedDeprecatedRules']);
    expect(results[1]).toMatchObject({ errorCount: 1, warningCount: 0, fatalErrorCount: 0, source: EARLY_CANCEL_JS });
  });
});

/** The parts of a SARIF 2.1.0 log these tests read (the schema check covers the rest). */
interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; rules: { id: string; helpUri?: string }[] } };
    results: {
      ruleId: string;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
    }[];
  }[];
}

describe('drainguard lint --format sarif', () => {
  it('prints a SARIF 2.1.0 log valid against the official schema', async () => {
    const dir = tempProject({ 'src/stream.js': EARLY_CANCEL_JS, 'src/broken.js': UNPARSABLE_JS, 'src/math.js': NO_CLOSE_WORDS_JS });
    const run = await runCli(['lint', '--format=sarif'], dir);
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as SarifLog;
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);

    expect(log.version).toBe('2.1.0');
    const sarifRun = log.runs[0];
    expect(sarifRun.tool.driver.name).toBe('drainguard');
    expect(sarifRun.tool.driver.version).toBe(packageJson.version);
    const rule = sarifRun.tool.driver.rules.find((candidate) => candidate.id === RULE_ID)!;
    expect(rule.helpUri).toBe(plugin.rules['no-early-stream-close'].meta!.docs!.url);
    expect(rule.helpUri).toMatch(/^https:\/\//);

    const report = sarifRun.results.find((result) => result.ruleId === RULE_ID)!;
    expect(report.level).toBe('error');
    expect(report.message.text).toContain('cancel()');
    const { line, column, endLine, endColumn } = EARLY_CANCEL_POSITION;
    expect(report.locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: 'src/stream.js' },
      region: { startLine: line, startColumn: column, endLine, endColumn },
    });

    const parseError = sarifRun.results.find((result) => result.ruleId === 'drainguard/parse-error')!;
    expect(parseError.level).toBe('error');
    expect(parseError.message.text).toContain('Parsing error');
    expect(parseError.locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: 'src/broken.js' },
      region: { startLine: 2, startColumn: 37 },
    });
    expect(sarifRun.results).toHaveLength(2);
  });

  it('gives every rule and notification descriptor a help link to a docs page and heading of this repository', async () => {
    const dir = tempProject({ 'math.js': NO_CLOSE_WORDS_JS });
    const run = await runCli(['lint', '--format', 'sarif'], dir);
    const { driver } = (JSON.parse(run.stdout) as { runs: { tool: { driver: { rules: { id: string; helpUri?: string }[]; notifications: { id: string; helpUri?: string }[] } } }[] }).runs[0].tool;
    expect([...driver.rules, ...driver.notifications].map(({ id, helpUri }) => [id, helpUri])).toEqual([
      [RULE_ID, 'https://github.com/drainguard/drainguard/blob/main/docs/rules/no-early-stream-close.md'],
      ['drainguard/parse-error', 'https://github.com/drainguard/drainguard/blob/main/docs/cli.md#files-that-do-not-parse'],
      ['drainguard/file-not-checked', 'https://github.com/drainguard/drainguard/blob/main/docs/cli.md#files-that-cannot-be-checked'],
    ]);
    const cli = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
    expect(cli).toContain('\n### Files that do not parse\n');
    expect(cli).toContain('\n### Files that cannot be checked\n');
  });

  it('prints a valid log with no results for a clean tree (exit 0)', async () => {
    const dir = tempProject({ 'math.js': NO_CLOSE_WORDS_JS });
    const run = await runCli(['lint', '--format', 'sarif'], dir);
    expect(run.code).toBe(0);
    const log = JSON.parse(run.stdout) as SarifLog;
    expect(sarifValidator()(log)).toBe(true);
    expect(log.runs[0].results).toEqual([]);
  });
});
