#!/usr/bin/env node
// npm run corpus: installs the pinned packages of ../shared/corpus and of bench/corpus into cache folders outside the
// repository (never committed), runs `drainguard lint` and `drainguard fix --dry` over them, and checks each list's
// expected.tsv. `--only shared|wide` runs one list. Exit 0 when every expectation holds, 1 otherwise.
import { SHARED_CORPUS, WIDE_CORPUS, installCorpus } from './corpus-cache.mjs';
import { fixStatus, lintCorpus } from './corpus-run.mjs';
import { checkSharedCorpus } from './corpus-shared.mjs';
import { checkWideCorpus, familyTable } from './corpus-wide.mjs';

function log(line = '') {
  process.stdout.write(`${line}\n`);
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const corpora = [SHARED_CORPUS, WIDE_CORPUS].filter((corpus) => only === null || corpus.name === only);
if (corpora.length === 0) {
  log(`corpus: unknown list ${only} (shared, wide)`);
  process.exit(2);
}

let failures = 0;
for (const corpus of corpora) {
  installCorpus(log, corpus);
  const run = lintCorpus(corpus);
  const checked = corpus === WIDE_CORPUS ? checkWideCorpus({ dir: corpus.dir, ...run }) : checkSharedCorpus({ dir: corpus.dir, ...run });
  const rows = [...checked.rows];
  const check = (ok, kind, where, verdict, detail) => {
    if (!ok) checked.failures++;
    rows.push([ok ? 'ok' : 'FAIL', kind, where, verdict, detail]);
  };
  check(run.fatals.length === 0, 'PARSE', 'all files', run.fatals.length === 0 ? 'every file parsed' : `${run.fatals.length} unparsable`, run.fatals.slice(0, 5).join('; '));
  const { summary } = run.fixReport;
  check(summary.errors === 0, 'FIX', 'all files', `fix --dry: ${summary.errors} errors`, `${summary.sitesFound} sites: ${summary.fixed} fixed, ${summary.manual} manual`);

  log();
  log(`## corpus ${corpus.name}: ${run.packages.length} packages (${corpus.dir})`);
  log();
  log('| result | kind | where | verdict | detail |');
  log('|---|---|---|---|---|');
  for (const row of rows) log(`| ${row.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`);
  if (checked.families) {
    log();
    log(familyTable(checked.families));
  }
  if (checked.summary) {
    const { realSites, realFound, knownMisses, knownFalse } = checked.summary;
    log();
    log(`real early closes (TP and MISS rows): ${realFound} of ${realSites} reported; known misses: ${knownMisses}; known false reports: ${knownFalse}`);
  }
  log();
  log(`All reports (${run.reports.length}) and what fix --dry would do with them:`);
  for (const report of run.reports) {
    const site = run.fixSites.find((candidate) => candidate.file === report.file && candidate.line === report.line && candidate.column === report.column);
    log(`  ${report.file}:${report.line}:${report.column}  ${site ? fixStatus(site) : 'not a fix site'}`);
  }
  log();
  log(`lint: ${run.files} files in ${run.lintMs} ms; fix --dry: ${summary.filesScanned} files in ${run.fixMs} ms`);
  log(checked.failures === 0 ? `corpus ${corpus.name}: every expectation holds` : `corpus ${corpus.name}: ${checked.failures} expectation(s) failed`);
  failures += checked.failures;
}
process.exitCode = failures === 0 ? 0 : 1;
