#!/usr/bin/env node
// npm run corpus:python: the Python SDK repositories of bench/corpus-python/repos.tsv, each cloned at its pinned commit
// from its public GitHub URL into a cache folder outside the repository (never committed), only the listed paths
// checked out, without their test folders (DRAINGUARD_SDK_MIRRORS=DIR clones DIR/<owner>+<name>/repo instead: a directory of git mirrors, as for
// `npm run sdk-suites:python`). Runs `drainguard lint` and `drainguard fix --dry` over those paths and checks
// bench/corpus-python/expected.tsv with the wide corpus's checker (PACKAGE rows name repositories; TP, TN, MISS and
// FALSE rows give paths relative to the cache, `<name>/<path>`). Not part of `npm run corpus`: it needs GitHub or
// a mirror. Exit 0 when every expectation holds, 1 otherwise.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixStatus } from './corpus-run.mjs';
import { checkWideCorpus, familyTable } from './corpus-wide.mjs';
import { checkoutPinned } from './pinned-checkout.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = path.join(ROOT, 'bench/corpus-python');
const CACHE = process.env.DRAINGUARD_PYTHON_CORPUS_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'drainguard-corpus-python');
const CLI = path.join(ROOT, 'dist/cli.js');

const log = (line = '') => process.stdout.write(`${line}\n`);

/** The rows of repos.tsv: `{ name, repo, commit, paths }`. */
export function pythonRepos() {
  return readFileSync(path.join(DIR, 'repos.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [name, repo, commit, paths] = line.split('\t');
      return { name, repo, commit, paths: paths.split(',') };
    });
}

/** The repository at its commit with only its listed paths checked out (cloned once, then reset). */
function checkout(target) {
  // Sources only: test folders are left out (their data files can be large, and a mirror may lack them).
  const sparse = target.paths.flatMap((entry) => [`/${entry}/`, `!/${entry}/**/tests/`, `!/${entry}/**/test/`]);
  checkoutPinned(target, CACHE, { sparse, say: log });
}

function runCli(args) {
  try {
    return execFileSync(process.execPath, [CLI, ...args], { cwd: CACHE, maxBuffer: 1 << 30, encoding: 'utf8' });
  } catch (error) {
    if (error.status === 1 && error.stdout) return error.stdout;
    throw error;
  }
}

const repos = pythonRepos();
for (const target of repos) checkout(target);
const targets = repos.flatMap((target) => target.paths.map((entry) => `${target.name}/${entry}`));
const relative = (file) => path.relative(CACHE, file).split(path.sep).join('/');
const lintResults = JSON.parse(runCli(['lint', '--format', 'json', ...targets]));
const reports = [];
const fatals = [];
for (const result of lintResults) {
  for (const message of result.messages) {
    if (message.fatal) fatals.push(`${relative(result.filePath)}:${message.line} ${message.message}`);
    else reports.push({ file: relative(result.filePath), line: message.line, column: message.column, message: message.message });
  }
}
const fixReport = JSON.parse(runCli(['fix', '--dry', '--json', ...targets]));
const fixSites = fixReport.files.flatMap((file) => file.sites.map((site) => ({ ...site, file: relative(file.path) })));
const checked = checkWideCorpus({ dir: DIR, packages: repos.map((target) => target.name), reports, fixSites });
const rows = [...checked.rows];
rows.push([fatals.length === 0 ? 'ok' : 'FAIL', 'PARSE', 'all files', fatals.length === 0 ? 'every file parsed' : `${fatals.length} unparsable`, fatals.slice(0, 5).join('; ')]);
if (fatals.length > 0) checked.failures++;

log();
log(`## corpus python: ${repos.length} repositories (${DIR})`);
log();
log('| result | kind | where | verdict | detail |');
log('|---|---|---|---|---|');
for (const row of rows) log(`| ${row.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`);
log();
log(familyTable(checked.families));
const { realSites, realFound, knownMisses, knownFalse } = checked.summary;
log();
log(`real early closes (TP and MISS rows): ${realFound} of ${realSites} reported; known misses: ${knownMisses}; known false reports: ${knownFalse}`);
log();
log(`All reports (${reports.length}) and what fix --dry would do with them:`);
for (const report of reports) {
  const site = fixSites.find((candidate) => candidate.file === report.file && candidate.line === report.line && candidate.column === report.column);
  log(`  ${report.file}:${report.line}:${report.column}  ${site ? fixStatus(site) : 'not a fix site'}`);
}
log();
log(`lint: ${lintResults.length} files`);
log(checked.failures === 0 ? 'corpus python: every expectation holds' : `corpus python: ${checked.failures} expectation(s) failed`);
process.exitCode = checked.failures === 0 ? 0 : 1;
