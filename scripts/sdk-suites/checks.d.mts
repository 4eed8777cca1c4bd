import type { Check } from './sdks.mjs';
export interface ChangedFile {
  path: string;
  created: boolean;
}
export interface CheckResult {
  name: string;
  code: number | null;
  timedOut: boolean;
  output: string;
  files: string[];
}
export function changedFiles(dir: string): Promise<ChangedFile[]>;
export function parsePorcelain(output: string): ChangedFile[];
export function lineStats(text: string): { lines: number; longest: number };
export function fileStats(
  dir: string,
  files: ChangedFile[],
): Promise<(ChangedFile & { before: { lines: number; longest: number } | null; after: { lines: number; longest: number } })[]>;
export function runChecks(checks: Check[], dir: string, files: string[], env: NodeJS.ProcessEnv): Promise<CheckResult[]>;
export function runChecksBefore(checks: Check[], dir: string, files: ChangedFile[], env: NodeJS.ProcessEnv): Promise<CheckResult[]>;
export function stripAnsi(text: string): string;
