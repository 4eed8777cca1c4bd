// Turns one SDK's before/after records into the text the harness prints (and writes to report.md),
// and decides whether anything got worse.
import { DEFAULT_DRAIN_MAX_BYTES, MODE_LABELS, formatProbeTable, probeWorse } from './probe-report.mjs';
import { assertionOf } from './results.mjs';

/** Lines of a check's output shown in the report. */
const CHECK_OUTPUT_LINES = 60;

/** @param {import('./results.mjs').SuiteRun} suite */
function suiteLine(suite) {
  if (!suite.ran && !suite.killed && suite.ms === 0) return 'not run';
  if (!suite.ran) return suite.killed ? `no report: the run was killed after ${suite.ms} ms (hang)` : 'no report (the runner failed to start)';
  const counts = Object.entries(suite.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  return `${counts} (${suite.tests.length} tests, ${(suite.ms / 1000).toFixed(0)} s)${suite.killed ? ', then killed (hang)' : ''}`;
}

/** `file (n)` for each test file with failures. @param {import('./results.mjs').SuiteRun} suite */
function failuresByFile(suite) {
  /** @type {Map<string, number>} */
  const byFile = new Map();
  for (const test of suite.tests) {
    if (test.status !== 'failed') continue;
    const file = test.key.split(/ > | \(the file did not run\)/)[0];
    byFile.set(file, (byFile.get(file) ?? 0) + 1);
  }
  return [...byFile].map(([file, n]) => `${file} (${n})`);
}

/** @param {{ code: number | null, diagnostics: any[] }} tsc */
function tscLine(tsc) {
  if (tsc.code === null && tsc.diagnostics.length === 0) return 'not run';
  return tsc.diagnostics.length === 0 && tsc.code === 0 ? 'clean' : `${tsc.diagnostics.length} errors (exit ${tsc.code})`;
}

/**
 * `drainguard prove`'s runs of the same call (Node fetch, back to back, every body), original → rewrite:
 * what prove tells a maintainer for a pull request, from its --json reports.
 * @param {any} before @param {any} after
 */
export function formatProveTable(before, after) {
  if (!before && !after) return [];
  const failed = [['original', before], ['rewrite', after]].filter(([, prove]) => prove?.error).map(([which, prove]) => `drainguard prove of the ${which} failed: ${prove.error}`);
  if (failed.length) return failed;
  if (!before?.report || !after?.report) return [];
  const lines = [
    `\`drainguard prove --calls ${after.report.calls}\` (Node fetch, the calls back to back), original → rewrite:`,
    '',
    '| after the terminal event | requests | connections | closed early | slowest return, ms | exit |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const run of after.report.runs) {
    const was = before.report.runs.find((r) => r.mode === run.mode);
    if (!was) continue;
    const exit = (r) => (r.timedOut ? 'timed out' : String(r.exitCode));
    lines.push(
      `| ${MODE_LABELS[run.mode] ?? run.mode} | ${was.requests} → ${run.requests} | ${was.connections} → ${run.connections} | ${was.closedEarly} → ${run.closedEarly} | ` +
        `${Math.round(was.slowestReturnMs)} → ${Math.round(run.slowestReturnMs)} | ${exit(was)} → ${exit(run)} |`,
    );
  }
  return lines;
}

/** @param {{ code: number | null, timedOut: boolean }} check */
function checkStatus(check) {
  if (check.timedOut) return 'killed (time limit)';
  if (check.code === null) return 'not run (no file)';
  return check.code === 0 ? 'clean' : `exit ${check.code}`;
}

/**
 * The warnings and errors a check counted in its `Found N warnings and M errors` lines (biome,
 * oxlint, ultracite), or null when it printed no such line.
 * @param {string} output
 */
export function diagnosticCounts(output) {
  const found = output.split('\n').filter((line) => /^\s*Found \d+ (warning|error)/.test(line));
  if (found.length === 0) return null;
  const sum = (word) => found.reduce((n, line) => n + Number(new RegExp(`(\\d+) ${word}s?\\b`).exec(line)?.[1] ?? 0), 0);
  return { warnings: sum('warning'), errors: sum('error') };
}

/**
 * Whether a check says something new after the fix: another exit code, more warnings or errors,
 * or (a check that prints no counts) other output, durations and file counts aside.
 * @param {{ code: number | null, output: string } | undefined} before
 * @param {{ code: number | null, output: string }} after
 */
export function checkGotWorse(before, after) {
  if (!before || before.code !== after.code) return after.code !== 0;
  const [was, is] = [diagnosticCounts(before.output), diagnosticCounts(after.output)];
  if (was && is) return is.warnings > was.warnings || is.errors > was.errors;
  const comparable = (output) => output.replace(/\b\d+(\.\d+)?\s?(ms|s|µs)\b/g, 'T').replace(/\b(on|Checked) \d+ files?\b/g, '$1 N files').trim();
  return comparable(before.output) !== comparable(after.output);
}

/** @param {{ output: string }} check */
function countsText(check) {
  const counts = diagnosticCounts(check.output);
  return counts ? ` (errors: ${counts.errors}, warnings: ${counts.warnings})` : '';
}

/** The checks that say something new after the fix (see checkGotWorse). @param {any} r */
export function failedChecks(r) {
  if (!r.checks) return [];
  return r.checks.after.filter((after) => after.code !== null && checkGotWorse(r.checks.before.find((c) => c.name === after.name), after));
}

/** @param {any} r */
function checkLines(r) {
  if (!r.checks) return ['checks on the changed files: not run'];
  const lines = [];
  for (const after of r.checks.after) {
    const before = r.checks.before.find((c) => c.name === after.name);
    const worse = after.code !== null && checkGotWorse(before, after);
    lines.push(
      `check \`${after.name}\` on the changed files: before ${before ? checkStatus(before) + countsText(before) : 'not run'}, after ${checkStatus(after)}${countsText(after)}${worse ? ' — WORSE' : ''}`,
    );
    if (worse) {
      const output = after.output.trimEnd().split('\n');
      for (const line of output.slice(0, CHECK_OUTPUT_LINES)) lines.push(`    ${line}`);
      if (output.length > CHECK_OUTPUT_LINES) lines.push(`    … ${output.length - CHECK_OUTPUT_LINES} more lines`);
    }
  }
  return lines;
}

/** @param {any} r */
function fileLines(r) {
  return (r.files ?? []).map((f) =>
    f.before
      ? `  ${f.path}: ${f.before.lines} -> ${f.after.lines} lines (${signed(f.after.lines - f.before.lines)}), longest line ${f.before.longest} -> ${f.after.longest}`
      : `  ${f.path} (created): ${f.after.lines} lines, longest line ${f.after.longest}`,
  );
}

/** @param {number} n */
function signed(n) {
  return n >= 0 ? `+${n}` : String(n);
}

/**
 * Whether the fix made anything worse than before it: no fix report, a new type error, a hang, a
 * new failure other than one asserting the early close, a check that now fails, a failed probe of the
 * rewrite, or a probe row where the rewrite is worse than the original (probe-report.mjs).
 * @param {any} r
 */
export function worseThanBefore(r) {
  const c = r.comparison;
  return (
    Boolean(r.fix.error) ||
    r.newDiagnostics.length > 0 ||
    c.newFailures.some((test) => !test.assertsEarlyClose) ||
    c.timedOut.length > 0 ||
    r.after.suite.killed ||
    failedChecks(r).length > 0 ||
    probeWorse(r.before.probe, r.after.probe, limitsOf(r))
  );
}

/** The drain's limits the fix was run with. @param {any} r */
function limitsOf(r) {
  return r.limits ?? { maxBytes: DEFAULT_DRAIN_MAX_BYTES };
}

/**
 * @param {any} r one SDK's result record (see scripts/sdk-suites.mjs)
 * @returns {string}
 */
export function formatSdkReport(r) {
  const lines = [];
  lines.push(`## ${r.repo} @ ${r.commit.slice(0, 12)} (${r.name})`);
  lines.push('');
  lines.push(`drainguard: ${r.drainguard.dir} @ ${r.drainguard.commit.slice(0, 12)}${r.node ? `; SDK commands on Node ${r.node}` : ''}`);
  lines.push(`fix${r.fixCommand ? ` (${r.fixCommand})` : ''}: exit ${r.fix.code}; ${JSON.stringify(r.fix.summary ?? {})}`);
  for (const site of r.fix.sites) lines.push(`  ${site.path}:${site.line}:${site.column} ${site.status}${site.reason ? ` — ${site.reason}` : ''}`);
  if (r.fix.error) lines.push(`  fix error: ${r.fix.error}`);
  if (r.files?.length) lines.push(`changed files (${r.files.length}):`, ...fileLines(r));
  lines.push(...checkLines(r));
  lines.push(`type-check (${r.typecheckCommand}): before ${tscLine(r.before.tsc)}, after ${tscLine(r.after.tsc)}`);
  for (const d of r.newDiagnostics) lines.push(`  NEW ${d.file}(${d.line},${d.column}): ${d.code} ${d.message}`);
  lines.push(`tests before: ${suiteLine(r.before.suite)}`);
  const baselineFailures = failuresByFile(r.before.suite);
  if (baselineFailures.length) lines.push(`  failing before the fix: ${baselineFailures.join('; ')}`);
  lines.push(`tests after:  ${suiteLine(r.after.suite)}`);
  const c = r.comparison;
  lines.push(`hang: ${c.timedOut.length || r.after.suite.killed ? `YES (${c.timedOut.length} timed out${r.after.suite.killed ? ', run killed' : ''})` : 'no'}`);
  const closeChecks = c.newFailures.filter((test) => test.assertsEarlyClose).length;
  lines.push(`new failures (${c.newFailures.length}, of which ${closeChecks} assert the early close itself):`);
  for (const test of c.newFailures) {
    const tag = test.timedOut ? `HANG: timed out after ${Math.round(test.duration)} ms` : test.assertsEarlyClose ? 'asserts the early close' : 'REGRESSION';
    lines.push(`  - [${tag}] ${test.key}`);
    if (test.site) lines.push(`      line ${test.site.line}: ${test.site.source}`);
    for (const line of assertionOf(test.failure).split('\n').slice(0, 8)) lines.push(`      ${line}`);
  }
  if (c.flaky?.length) lines.push(`new failures that passed when their files ran again (flaky, not counted): ${c.flaky.map((t) => t.key).join('; ')}`);
  if (c.fixedFailures.length) lines.push(`failing before, passing after (${c.fixedFailures.length}): ${c.fixedFailures.map((t) => t.key).join('; ')}`);
  if (c.missing.length) lines.push(`ran before, not after (${c.missing.length}): ${c.missing.slice(0, 10).join('; ')}`);
  lines.push(`baseline failures still failing: ${c.stillFailing.length}`);
  lines.push('');
  lines.push('probe, original → rewrite:');
  lines.push('');
  lines.push(...formatProbeTable(r.before.probe, r.after.probe, limitsOf(r)));
  lines.push('');
  lines.push(...formatProveTable(r.before.probe?.prove, r.after.probe?.prove));
  lines.push('');
  lines.push('rewrite (git diff):');
  lines.push('```diff');
  lines.push(r.diff.trimEnd() || '(no change)');
  lines.push('```');
  return lines.join('\n');
}

/** A suite's counts without its duration (what the results section quotes). @param {import('./results.mjs').SuiteRun} suite */
function countsOnly(suite) {
  if (!suite.ran) return suite.killed ? 'killed (hang)' : 'not run';
  return Object.entries(suite.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}

/**
 * One SDK's section of a run's results.md (summarised in bench/RESULTS.md): the commit, the fix and its sites, the SDK's own checks
 * before → after, and the probe's table; no path of the machine it ran on.
 * @param {any} r one SDK's result record (see scripts/sdk-suites.mjs), or its summary.json entry
 * @returns {string}
 */
export function formatResultsSection(r) {
  const lines = [`### ${r.repo} @ \`${r.commit.slice(0, 12)}\` (\`--sdk ${r.name}\`)`, ''];
  const sites = r.fix.sites.map((site) => `\`${site.path}:${site.line}:${site.column}\` ${site.status}${site.bound ? ` (bounded by ${site.bound})` : ''}${site.reason ? ` — ${site.reason}` : ''}`);
  lines.push(`- **Fix** (\`${r.fixCommand}\`, exit ${r.fix.code}): ${sites.length ? sites.join('; ') : 'no site'}${r.fix.error ? `; error: ${r.fix.error}` : ''}.`);
  const files = (r.files ?? []).map((f) => (f.before ? `\`${f.path}\` ${signed(f.after.lines - f.before.lines)} lines` : `\`${f.path}\` created (${f.after.lines} lines)`));
  if (files.length) lines.push(`  Changed: ${files.join(', ')}.`);
  lines.push(`- **Type-check** (\`${r.typecheckCommand}\`): ${tscLine(r.before.tsc)} → ${tscLine(r.after.tsc)}${r.newDiagnostics.length ? `; new: ${r.newDiagnostics.map((d) => `${d.file}(${d.line},${d.column}) ${d.code}`).join(', ')}` : ''}.`);
  const c = r.comparison;
  const closeChecks = c.newFailures.filter((test) => test.assertsEarlyClose);
  const others = c.newFailures.filter((test) => !test.assertsEarlyClose);
  const suite = [`${countsOnly(r.before.suite)} → ${countsOnly(r.after.suite)}`];
  if (closeChecks.length) suite.push(`${closeChecks.length} new failures assert the early close itself (${[...new Set(closeChecks.map((t) => `\`${t.site?.source ?? t.key}\``))].join(', ')})`);
  if (others.length) suite.push(`**${others.length} other new failures**: ${others.map((t) => `${t.key}${t.timedOut ? ' (timed out)' : ''}`).join('; ')}`);
  if (c.flaky?.length) suite.push(`${c.flaky.length} failed once and passed when run again (flaky under load): ${c.flaky.map((t) => t.key).join('; ')}`);
  if (r.after.suite.killed) suite.push('**the run was killed (hang)**');
  lines.push(`- **Tests** (${(r.testCommands ?? []).map((command) => `\`${command}\``).join(', ') || 'the suite'}): ${suite.join('; ')}.`);
  if (r.checks) {
    const checks = r.checks.after.map((after) => {
      const before = r.checks.before.find((check) => check.name === after.name);
      const worse = after.code !== null && checkGotWorse(before, after);
      return `\`${after.name}\` ${before ? checkStatus(before) + countsText(before) : 'not run'} → ${checkStatus(after)}${countsText(after)}${worse ? ' (**worse**)' : ''}`;
    });
    lines.push(`- **Lint and format on the changed files**: ${checks.join('; ')}.`);
  } else {
    lines.push('- **Lint and format on the changed files**: not run.');
  }
  lines.push(`- **Worse than before** (\`worseThanBefore\`): ${worseThanBefore(r) ? '**yes**' : 'no'}.`);
  lines.push('', ...formatProbeTable(r.before.probe, r.after.probe, limitsOf(r)));
  const prove = formatProveTable(r.before.probe?.prove, r.after.probe?.prove);
  if (prove.length) lines.push('', ...prove);
  return lines.join('\n');
}
