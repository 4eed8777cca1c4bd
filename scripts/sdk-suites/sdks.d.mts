export const CACHE_DIR: string;
export interface Step {
  cwd: string;
  command: string[];
}
export interface TestRun {
  label: string;
  cwd: string;
  command: string[];
  /** vitest (default) or jest: which reporter and timeout flags the harness adds. */
  runner?: 'vitest' | 'jest';
}
export interface Check {
  name: string;
  command: string[];
}
export interface Sdk {
  name: string;
  repo: string;
  commit: string;
  node: string;
  install: string[][];
  lockfiles: string[];
  typecheck: Step;
  tests: TestRun[];
  checks: Check[];
  fixPath: string;
  entry?: string;
  tsconfig?: string;
}
export const SDKS: Sdk[];
export function cloneSource(sdk: { repo: string }, template?: string): { url: string; mirror: boolean };
