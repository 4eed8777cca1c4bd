import path from 'node:path';
import type { ESLint } from 'eslint';
import { LINTABLE_EXTENSIONS } from '../front-ends/registry.js';
import { collectTargetsOrReport } from '../shared/files.js';
import { stdoutSupportsColor } from '../shared/color.js';
import { formatResults } from './format.js';
import { parseLintArgs, type LintArgs } from './args.js';
import { lintFiles } from './lint-files.js';
import { lintSummary } from './summary.js';
import { ENGINES, isEngine, type Engine } from '../engines/engine-choice.js';
import { OxlintEngine } from '../engines/oxlint-engine.js';
import { hasProblems, isNotChecked } from '../shared/results.js';
import { LINT_USAGE } from '../shared/usage.js';
import { deferOptimizingCompiler } from '../engines/v8-tiering.js';
import { VERSION } from '../shared/version.js';

/**
 * `drainguard lint`: returns the exit code (0 clean, 1 problems, or files or directories that do not parse or could not be
 * checked, 2 usage error or missing path).
 */
export async function runLint(argv: readonly string[]): Promise<number> {
  const parsed = parseLintArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`drainguard lint: ${parsed.error}\nRun 'drainguard lint --help' for usage.\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(LINT_USAGE);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }

  const engine = engineFromEnvironment();
  if (engine === undefined) return 2;
  // Most runs lint little: lintFiles turns the optimizing compiler back on when one lints enough (cli/engines/v8-tiering.ts).
  deferOptimizingCompiler();
  const cwd = process.cwd();
  const targets = await collectTargetsOrReport('lint', args.paths, cwd, LINTABLE_EXTENSIONS);
  if (!targets) return 2;
  const { files, named, unreadableDirectories } = targets;
  const { results, parsed: parsedCount } = await lintFiles(files, {
    cwd,
    types: args.types,
    ruleOptions: args.ruleOptions,
    prefilter: process.env.DRAINGUARD_NO_PREFILTER !== '1',
    named,
    engine,
    suggestions: args.format === 'json',
  });
  await printResults(results, args, { cwd, found: files.length, parsed: parsedCount });
  // A directory that could not be read holds files that were not checked, as a file that could not be read is one.
  return hasProblems(results) || unreadableDirectories.length > 0 ? 1 : 0;
}

/** The engine DRAINGUARD_ENGINE forces (default auto), or undefined after saying on stderr why it cannot run. */
function engineFromEnvironment(): Engine | undefined {
  const engine = process.env.DRAINGUARD_ENGINE || 'auto';
  if (!isEngine(engine)) {
    process.stderr.write(`drainguard lint: DRAINGUARD_ENGINE must be one of ${ENGINES.join(', ')}, got '${engine}'.\n`);
    return undefined;
  }
  if (engine === 'oxlint' && !OxlintEngine.find()) {
    process.stderr.write(`drainguard lint: DRAINGUARD_ENGINE=oxlint, but the oxlint package is not installed next to drainguard.\n`);
    return undefined;
  }
  return engine;
}

/**
 * The report on stdout, exactly in ESLint's format; the summary goes to stderr, and only for the human format. JSON and
 * SARIF name on stderr the files that were not checked (their output says it too), so a CI log shows why the run failed.
 */
async function printResults(results: ESLint.LintResult[], args: LintArgs, run: { cwd: string; found: number; parsed: number }): Promise<void> {
  const output = await formatResults(results, args.format, { cwd: run.cwd, color: args.color ?? stdoutSupportsColor() });
  if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  if (args.format === 'stylish') process.stderr.write(lintSummary({ found: run.found, parsed: run.parsed }, results));
  else process.stderr.write(notCheckedLines(results, run.cwd));
}

/** `drainguard lint: src/a.js: File not checked: …` for each file that could not be checked, or ''. */
function notCheckedLines(results: readonly ESLint.LintResult[], cwd: string): string {
  return results
    .flatMap((result) => result.messages.filter(isNotChecked).map((message) => `drainguard lint: ${path.relative(cwd, result.filePath)}: ${message.message}\n`))
    .join('');
}
