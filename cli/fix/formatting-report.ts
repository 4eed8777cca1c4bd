import path from 'node:path';
import type { FormatProblem } from './formatter.js';
import type { FormattingReport } from './report.js';

/** A file the run wrote, with why the repository's formatter did not format it, where it could not run. */
export interface WrittenFile {
  path: string;
  problem?: FormatProblem;
}

/** The files the repository's formatter could not format, by configuration and reason, with what formats them. */
export function formattingReports(written: readonly WrittenFile[], cwd: string): FormattingReport[] {
  const byProblem = new Map<string, { problem: FormatProblem; files: string[] }>();
  for (const file of written) {
    if (!file.problem) continue;
    const key = `${file.problem.config}\0${file.problem.reason}`;
    const group = byProblem.get(key) ?? { problem: file.problem, files: [] };
    group.files.push(file.path);
    byProblem.set(key, group);
  }
  return [...byProblem.values()].map(({ problem, files }) => ({
    formatter: problem.formatter,
    config: problem.config,
    reason: problem.reason,
    files,
    run: [...problem.command, ...files.map((file) => path.relative(cwd, file) || file)].map(shellWord).join(' '),
  }));
}

/** A word as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
