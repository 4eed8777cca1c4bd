// Runs `drainguard lint --format json` and `drainguard fix --dry --json` over a corpus's installed packages.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, corpusPackages, modulesDir } from './corpus-cache.mjs';

const cli = path.join(ROOT, 'dist/cli.js');
export const LINE_TOLERANCE = 2;

function runCli(args, cwd) {
  try {
    return execFileSync(process.execPath, [cli, ...args], { cwd, maxBuffer: 1 << 30, encoding: 'utf8' });
  } catch (error) {
    if (typeof error.status === 'number' && error.status === 1 && error.stdout) return error.stdout;
    throw error;
  }
}

const relativeTo = (modules, file) => path.relative(modules, file).split(path.sep).join('/');

/** Reports (`{ file, line, column, message }`, paths relative to node_modules), parse failures and fix sites of a corpus. */
export function lintCorpus(corpus) {
  const modules = modulesDir(corpus);
  const packages = corpusPackages(corpus);
  let started = Date.now();
  const lintResults = JSON.parse(runCli(['lint', '--format', 'json', ...packages], modules));
  const lintMs = Date.now() - started;
  const reports = [];
  const fatals = [];
  for (const result of lintResults) {
    const file = relativeTo(modules, result.filePath);
    for (const message of result.messages) {
      if (message.fatal) fatals.push(`${file}:${message.line} ${message.message}`);
      else reports.push({ file, line: message.line, column: message.column, message: message.message });
    }
  }
  started = Date.now();
  const fixReport = JSON.parse(runCli(['fix', '--dry', '--json', ...packages], modules));
  const fixMs = Date.now() - started;
  const fixSites = fixReport.files.flatMap((file) => file.sites.map((site) => ({ ...site, file: relativeTo(modules, file.path) })));
  return { packages, files: lintResults.length, reports, fatals, fixReport, fixSites, lintMs, fixMs };
}

export const near = (items, file, line) => items.filter((item) => item.file === file && Math.abs(item.line - line) <= LINE_TOLERANCE);

export function packageOf(relative) {
  const parts = relative.split('/');
  return relative.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function fixStatus(site) {
  return site ? `${site.status}${site.reason ? ` (${site.reason})` : ''}` : 'no fix site';
}
