import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { FileReport, FixSummary } from '../../cli/fix/report.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = path.join(ROOT, 'dist/cli.js');
export const RULE_ID = 'drainguard/no-early-stream-close';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user does: `node dist/cli.js …` in `cwd`, stdout/stderr piped. */
export function runCli(args: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.FORCE_COLOR;
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: childEnv, maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Parses `--format json` output. */
export function parseJson(run: CliRun): LintResultJson[] {
  return JSON.parse(run.stdout) as LintResultJson[];
}

/** Parses `drainguard fix --json` output. */
export function parseFixJson(run: { stdout: string }): { files: FileReport[]; summary: FixSummary } {
  return JSON.parse(run.stdout) as { files: FileReport[]; summary: FixSummary };
}

export interface LintMessageJson {
  ruleId: string | null;
  message: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  fatal?: boolean;
  severity: number;
}

export interface LintResultJson {
  filePath: string;
  messages: LintMessageJson[];
  errorCount: number;
  fatalErrorCount: number;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory (real path, removed after the test file) holding `files` (relative path → text). */
export function tempProject(files: Record<string, string> = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'drainguard-cli-')));
  tempDirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** Result of `filePath` (absolute) in parsed json output. */
export function resultFor(results: LintResultJson[], filePath: string): LintResultJson {
  const found = results.find((result) => result.filePath === filePath);
  if (!found) throw new Error(`no result for ${filePath} in ${results.map((result) => result.filePath).join(', ')}`);
  return found;
}
