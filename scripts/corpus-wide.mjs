// The checks of bench/corpus/expected.tsv: every package has a verdict, every TP row is reported (and `fix --dry`
// lists it), no TN line is reported, and every report is a TP row. Two kinds record what the rule gets wrong today
// without failing the run: MISS (a real early close, confirmed by a connection count, that the rule does not report
// yet) and FALSE (a report at this line that is not an early close). Both are listed, counted in the summary and
// in the per-family precision and recall; when the rule changes, a MISS that is reported or a FALSE that is not
// is listed as such (turn the row into TP or TN). Per package family: precision and recall.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LINE_TOLERANCE, fixStatus, near, packageOf } from './corpus-run.mjs';

function readRows(dir) {
  return readFileSync(path.join(dir, 'expected.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [kind, name, third, what] = line.split('\t');
      return kind === 'PACKAGE' ? { kind, name, family: third, what } : { kind, file: name, line: Number(third), what };
    });
}

/** Rows `[result, kind, where, verdict, detail]`, the number of failed expectations, and the per-family table. */
export function checkWideCorpus({ dir, packages, reports, fixSites }) {
  const rows = readRows(dir);
  const table = [];
  let failures = 0;
  const check = (ok, kind, where, verdict, detail) => {
    if (!ok) failures++;
    table.push([ok ? 'ok' : 'FAIL', kind, where, verdict, detail]);
  };
  const familyOf = new Map(rows.filter((row) => row.kind === 'PACKAGE').map((row) => [row.name, row.family]));
  for (const name of packages) check(familyOf.has(name), 'PACKAGE', name, familyOf.has(name) ? familyOf.get(name) : 'NO VERDICT', 'every package of package.json needs a PACKAGE row');
  for (const name of familyOf.keys()) if (!packages.includes(name)) check(false, 'PACKAGE', name, 'not in package.json', 'a verdict on a package the list does not pin');

  const truePositives = rows.filter((row) => row.kind === 'TP');
  const knownMisses = rows.filter((row) => row.kind === 'MISS');
  const knownFalse = rows.filter((row) => row.kind === 'FALSE');
  const realSites = [...truePositives, ...knownMisses];
  for (const row of truePositives) {
    const found = near(reports, row.file, row.line);
    const site = near(fixSites, row.file, row.line)[0];
    const listed = site !== undefined && (site.status === 'fixed' || Boolean(site.reason));
    check(found.length > 0 && listed, 'TP', `${row.file}:${row.line}`, found.length > 0 ? `reported at ${found[0].line}:${found[0].column}` : 'MISSED', `fix --dry: ${fixStatus(site)}`);
  }
  for (const row of rows.filter((candidate) => candidate.kind === 'TN')) {
    const found = reports.filter((report) => report.file === row.file && report.line === row.line);
    check(found.length === 0, 'TN', `${row.file}:${row.line}`, found.length === 0 ? 'not reported' : 'FALSE ALARM', row.what);
  }
  for (const row of knownMisses) {
    const found = near(reports, row.file, row.line);
    check(true, 'MISS', `${row.file}:${row.line}`, found.length > 0 ? `now reported at ${found[0].line}:${found[0].column}: make the row TP` : 'known miss: not reported', row.what);
  }
  for (const row of knownFalse) {
    const found = reports.filter((report) => report.file === row.file && report.line === row.line);
    check(true, 'FALSE', `${row.file}:${row.line}`, found.length > 0 ? 'known false report' : 'no longer reported: make the row TN', row.what);
  }
  const isTrue = (report) => realSites.some((row) => row.file === report.file && Math.abs(row.line - report.line) <= LINE_TOLERANCE);
  const isKnownFalse = (report) => knownFalse.some((row) => row.file === report.file && row.line === report.line);
  for (const report of reports.filter((candidate) => !isTrue(candidate) && !isKnownFalse(candidate))) {
    check(false, 'UNEXPECTED', `${report.file}:${report.line}:${report.column}`, 'reported, no TP, MISS or FALSE row', report.message);
  }

  const families = new Map();
  const familyRow = (family) => {
    if (!families.has(family)) families.set(family, { packages: 0, reports: 0, falseReports: 0, expected: 0, found: 0 });
    return families.get(family);
  };
  for (const name of packages) familyRow(familyOf.get(name) ?? 'no verdict').packages++;
  for (const report of reports) {
    const counts = familyRow(familyOf.get(packageOf(report.file)) ?? 'no verdict');
    counts.reports++;
    if (!isTrue(report)) counts.falseReports++;
  }
  for (const row of realSites) {
    const counts = familyRow(familyOf.get(packageOf(row.file)) ?? 'no verdict');
    counts.expected++;
    if (near(reports, row.file, row.line).length > 0) counts.found++;
  }
  const summary = {
    realSites: realSites.length,
    realFound: realSites.filter((row) => near(reports, row.file, row.line).length > 0).length,
    knownMisses: knownMisses.filter((row) => near(reports, row.file, row.line).length === 0).length,
    knownFalse: knownFalse.filter((row) => reports.some((report) => report.file === row.file && report.line === row.line)).length,
  };
  return { rows: table, failures, families, summary };
}

/** The per-family table as Markdown: precision = true reports / reports, recall = expected sites found / expected sites. */
export function familyTable(families) {
  const ratio = (part, whole) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(0)}%`);
  const lines = ['| family | packages | reports | false reports | precision | expected sites | found | recall |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  const total = { packages: 0, reports: 0, falseReports: 0, expected: 0, found: 0 };
  for (const [family, counts] of families) {
    for (const key of Object.keys(total)) total[key] += counts[key];
    lines.push(`| ${family} | ${counts.packages} | ${counts.reports} | ${counts.falseReports} | ${ratio(counts.reports - counts.falseReports, counts.reports)} | ${counts.expected} | ${counts.found} | ${ratio(counts.found, counts.expected)} |`);
  }
  lines.push(`| all | ${total.packages} | ${total.reports} | ${total.falseReports} | ${ratio(total.reports - total.falseReports, total.reports)} | ${total.expected} | ${total.found} | ${ratio(total.found, total.expected)} |`);
  return lines.join('\n');
}
