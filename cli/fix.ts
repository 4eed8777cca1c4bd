import { readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { isTypeScriptPath } from '../rules/parser-options.js';
import { rewrite } from '../codemods/rewrite.js';
import { collectFilesOrReport } from './files.js';
import { mayReport } from './for-await-check.js';
import { parseFixArgs, type FixArgs } from './fix-args.js';
import { colorDiff, humanReport, summarize, unifiedDiff, type FileReport } from './fix-report.js';
import { diffPath, diffRoot } from './diff-paths.js';
import { RewriteVerifier, hasTsconfig } from './fix-verify.js';
import { stdoutSupportsColor } from './format.js';
import { dirtyWorkTrees } from './git-clean.js';
import { rewritePython } from '../codemods/python/rewrite.js';
import { isPythonPath, mayReportPython } from './python-files.js';
import { FIX_USAGE } from './usage.js';
import { VERSION } from './version.js';

const CLEAR_LINE = '\r\u001b[2K';

/** `drainguard fix`: 0 every site fixed (or none), 1 some site manual or some file failed, 2 usage error or refusal. */
export async function runFix(argv: readonly string[]): Promise<number> {
  const parsed = parseFixArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`drainguard fix: ${parsed.error}\nRun 'drainguard fix --help' for usage.\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(FIX_USAGE);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }

  const cwd = process.cwd();
  const files = await collectFilesOrReport('fix', args.paths, cwd);
  if (!files) return 2;
  if (!args.dry && !args.force) {
    const dirty = await dirtyWorkTrees(new Set([cwd, ...files.map((file) => path.dirname(file))]));
    if (dirty.length > 0) {
      process.stderr.write(
        `drainguard fix: refusing to rewrite files: the git work tree ${dirty.join(', ')} has uncommitted changes.\n` +
          `Commit or stash them first so the rewrite can be reviewed as its own diff, or pass --force to rewrite anyway (--dry shows what would change).\n`,
      );
      return 2;
    }
  }

  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
  };
  process.on('SIGINT', onSigint);
  const progress = process.stderr.isTTY && !args.json;
  const verifier = args.verify === 'off' ? undefined : new RewriteVerifier();
  const diffAt = args.print ? await diffRoot(cwd, files) : undefined;
  if (diffAt && !diffAt.isCwd && !args.json) {
    process.stderr.write(`drainguard fix: the diff paths are relative to ${diffAt.root} (not every file is under this directory): apply the diff there.\n`);
  }
  const patchRoot = diffAt?.root;
  const reports: FileReport[] = [];
  const color = stdoutSupportsColor();
  let scanned = 0;
  try {
    for (const file of files) {
      if (interrupted) break;
      scanned++;
      if (progress) process.stderr.write(`${CLEAR_LINE}[${scanned}/${files.length}] ${path.relative(cwd, file)}`);
      const report = await fixFile(file, args, verifier, patchRoot);
      if (!report) continue;
      reports.push(report);
      if (report.diff && !args.json) {
        // Both go to the terminal: erase the progress line first, or the diff's first line is drawn over it.
        if (progress) process.stderr.write(CLEAR_LINE);
        process.stdout.write(color ? `${colorDiff(report.diff)}\n` : `${report.diff}\n`);
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    if (progress) process.stderr.write(CLEAR_LINE);
  }

  const summary = summarize(reports, scanned);
  if (args.json) {
    const shown = reports.map((report) => (args.print ? report : { ...report, diff: undefined }));
    process.stdout.write(`${JSON.stringify({ files: shown, summary }, null, 2)}\n`);
  } else {
    // With --print, stdout is the patch alone (`fix --dry --print > p.diff && git apply p.diff`).
    (args.print ? process.stderr : process.stdout).write(humanReport(reports, summary, cwd, args.dry));
  }
  if (interrupted) {
    process.stderr.write(`drainguard fix: interrupted after ${scanned} of ${files.length} files; every file is either unchanged or fully rewritten.\n`);
    return 130;
  }
  return summary.manual > 0 || summary.errors > 0 ? 1 : 0;
}

async function fixFile(
  file: string,
  args: { dry: boolean; drainTimeoutMs: number; drainMaxBytes: number; verify: 'auto' | 'on' | 'off'; types: boolean; ruleOptions: FixArgs['ruleOptions'] },
  verifier: RewriteVerifier | undefined,
  patchRoot: string | undefined,
): Promise<FileReport | null> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    return { path: file, changed: false, sites: [], error: `cannot read: ${messageOf(error)}` };
  }
  const python = isPythonPath(file);
  if (python ? !mayReportPython(source, args.ruleOptions) : !mayReport(source, file)) return null;
  const result = python
    ? await rewritePython(source, { drainTimeoutMs: args.drainTimeoutMs, drainMaxBytes: args.drainMaxBytes, ruleOptions: args.ruleOptions, filePath: file })
    : rewrite(source, file, { drainTimeoutMs: args.drainTimeoutMs, drainMaxBytes: args.drainMaxBytes, types: args.types, ruleOptions: args.ruleOptions });
  if (result.parseError) return { path: file, changed: false, sites: [], error: `cannot parse: ${result.parseError}` };
  if (result.sites.length === 0) return null;
  const report: FileReport = { path: file, changed: false, sites: result.sites };
  if (result.output === null) return report;

  // Verification is on by default where a tsconfig.json applies (--verify: also elsewhere, with strict defaults).
  if (verifier && isTypeScriptPath(file) && (args.verify === 'on' || hasTsconfig(file))) {
    const added = await verifier.addedDiagnostics(file, source, result.output);
    if (added.length > 0) {
      const reason = `rolled back: the rewrite adds a TypeScript diagnostic: ${added[0]}`;
      report.sites = result.sites.map((site) => (site.status === 'fixed' ? { line: site.line, column: site.column, status: 'manual', reason } : site));
      return report;
    }
  }
  if (patchRoot !== undefined) report.diff = unifiedDiff(diffPath(patchRoot, file), source, result.output);
  if (!args.dry) {
    try {
      await writeFileAtomic(file, result.output, { encoding: 'utf8' });
    } catch (error) {
      report.error = `cannot write: ${messageOf(error)}`;
      return report;
    }
  }
  report.changed = true;
  return report;
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return `${error.code} ${error instanceof Error ? error.message : ''}`.trim();
  }
  return error instanceof Error ? error.message : String(error);
}
