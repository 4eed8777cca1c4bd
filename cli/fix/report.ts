import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { SiteResult } from '../../codemods/rewrite.js';
import { statusText } from '../../rules/contract/fix-report.js';

export interface FileReport {
  path: string;
  changed: boolean;
  sites: SiteResult[];
  error?: string;
  diff?: string;
  /** The run's helper module (the rewritten files import it): created, or added to. */
  helper?: 'created' | 'updated';
  /** The test of a helper module written with it (cli/fix/helper-test.ts), or why it is not written. */
  test?: 'created' | 'updated' | 'not written';
  /** The test's framework (vitest, jest, mocha, node:test). */
  framework?: string;
  /** What the report says beside the test: why it is not written, or that the test config's patterns miss it. */
  note?: string;
}

export interface FixSummary {
  filesScanned: number;
  sitesFound: number;
  fixed: number;
  manual: number;
  errors: number;
  /** After Ctrl-C: the phase it stopped, and how many files it had to write that it did not write. */
  interrupted?: { phase: FixPhase; filesNotWritten: number };
}

/** What `fix` was doing: reading and rewriting in memory, formatting, type-checking, writing. */
export type FixPhase = 'reading' | 'formatting' | 'type-checking' | 'writing';

/**
 * The repository's formatter could not be run on files `fix` wrote: which configuration, why, and what formats them
 * (`run`, the files' paths included).
 */
export interface FormattingReport {
  formatter: string;
  config: string;
  reason: string;
  files: string[];
  run: string;
}

export function summarize(files: readonly FileReport[], filesScanned: number, interrupted?: FixSummary['interrupted']): FixSummary {
  const sites = files.flatMap((file) => file.sites);
  return {
    filesScanned,
    sitesFound: sites.length,
    fixed: sites.filter((site) => site.status === 'fixed').length,
    manual: sites.filter((site) => site.status === 'manual').length,
    errors: files.filter((file) => file.error !== undefined).length,
    ...(interrupted ? { interrupted } : {}),
  };
}

/** A unified diff, the shape `--print` shows (and `git apply` accepts); `before` null: a new file. */
export function unifiedDiff(relativePath: string, before: string | null, after: string): string {
  const name = relativePath.split(path.sep).join('/');
  return createTwoFilesPatch(before === null ? '/dev/null' : `a/${name}`, `b/${name}`, before ?? '', after, undefined, undefined, { context: 3 }).replace(/^=+\r?\n/, '');
}

export function colorDiff(diff: string): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return `\u001b[1m${line}\u001b[22m`;
      if (line.startsWith('+')) return `\u001b[32m${line}\u001b[39m`;
      if (line.startsWith('-')) return `\u001b[31m${line}\u001b[39m`;
      if (line.startsWith('@@')) return `\u001b[36m${line}\u001b[39m`;
      return line;
    })
    .join('\n');
}

/** The human report: one line per site or failed file, one per formatter that could not run, then the totals. */
export function humanReport(files: readonly FileReport[], summary: FixSummary, cwd: string, dry: boolean, formatting: readonly FormattingReport[] = []): string {
  const out: string[] = [];
  for (const file of files) {
    const shown = path.relative(cwd, file.path) || file.path;
    if (file.error !== undefined) out.push(`${shown}  error  ${file.error}`);
    else if (file.helper) out.push(`${shown}  helper module ${file.helper}${dry ? ' (not written)' : ''}`);
    else if (file.test) out.push(`${shown}  test of the helper module ${file.test}${file.framework ? ` (${file.framework})` : ''}${dry && file.changed ? ' (not written)' : ''}${file.note ? `: ${file.note}` : ''}`);
    for (const site of file.sites) {
      out.push(`${shown}:${site.line}:${site.column}  ${statusText(site)}${site.reason ? `  ${site.reason}` : ''}`);
    }
  }
  for (const problem of formatting) {
    const files = `${problem.files.length} ${dry ? 'changed' : 'written'} file${problem.files.length === 1 ? '' : 's'}`;
    const reason = problem.reason.split(`${cwd}${path.sep}`).join('');
    out.push(
      `${path.relative(cwd, problem.config) || problem.config}  not formatted: ${reason.replace(/[.:]?$/, ';')} ` +
        `${files} laid out as drainguard writes them (the settings the configuration states, else the file's own style): ` +
        `run the repository's formatter on ${problem.files.length === 1 ? 'it' : 'them'}: ${problem.run}`,
    );
  }
  const totals =
    `${summary.filesScanned} file${summary.filesScanned === 1 ? '' : 's'} scanned, ${summary.sitesFound} site${summary.sitesFound === 1 ? '' : 's'}: ` +
    `${summary.fixed} fixed, ${summary.manual} manual, ${summary.errors} error${summary.errors === 1 ? '' : 's'}`;
  const { interrupted } = summary;
  if (interrupted) {
    const notWritten = `${interrupted.filesNotWritten} file${interrupted.filesNotWritten === 1 ? '' : 's'} not written`;
    out.push(`${totals} (interrupted while ${interrupted.phase === 'reading' ? 'reading the files' : interrupted.phase}: ${dry ? 'dry run, nothing written' : notWritten})`);
  } else out.push(dry ? `${totals} (dry run: nothing written)` : totals);
  if (summary.manual > 0) out.push(MANUAL_POINTER.trimEnd());
  return `${out.join('\n')}\n`;
}

/** After sites left manual: what keeps their connections meanwhile, with no source change. */
export const MANUAL_POINTER =
  'next: until the manual sites are rewritten by hand, drainguard/undici (Node) and drainguard-httpx (Python) keep their connections at run time with no source change\n';

/** The last line of `fix --print` (on stderr, so stdout stays a patch) when something was fixed. */
export const PROVE_POINTER =
  'next: drainguard prove -- <a command that makes your calls to $DRAINGUARD_URL> shows the connections they open and how they return from hostile bodies (drainguard prove --help)\n';
