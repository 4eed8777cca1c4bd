#!/usr/bin/env node
// `node scripts/sdk-suites/results-section.mjs <run dir>...`: the per-SDK sections of one or more runs
// of `npm run sdk-suites` (each run's summary.json), as the harness writes them to results.md, written
// again from the records (after a change of the report's format, say). bench/RESULTS.md keeps one
// summary row per SDK from them (pasted by hand over the last run's).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatResultsSection } from './report.mjs';
import { SDKS } from './sdks.mjs';

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  process.stderr.write('usage: results-section.mjs <run dir>...\n');
  process.exit(2);
}
const sections = [];
for (const dir of dirs) {
  for (const record of JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8'))) {
    const sdk = SDKS.find((s) => s.name === record.name);
    // Records of runs before the harness kept its test commands.
    record.testCommands ??= sdk?.tests.map((testRun) => `${testRun.cwd === '.' ? '' : `(cd ${testRun.cwd}) `}${testRun.command.join(' ')}`);
    sections.push(formatResultsSection(record));
  }
}
process.stdout.write(`${sections.join('\n\n')}\n`);
