export interface TestRecord {
  key: string;
  file: string;
  run: string;
  status: string;
  duration: number;
  failure: string;
  timedOut: boolean;
}
export interface SuiteRun {
  ran: boolean;
  killed: boolean;
  ms: number;
  counts: Record<string, number>;
  tests: TestRecord[];
}
export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}
export function readVitestReport(
  reportFile: string,
  root: string,
  process: { killed: boolean; ms: number; testTimeoutMs?: number; run?: string; prefix?: boolean },
): SuiteRun;
export function mergeSuiteRuns(runs: SuiteRun[]): SuiteRun;
export function compareSuites(
  before: SuiteRun,
  after: SuiteRun,
): { newFailures: TestRecord[]; fixedFailures: TestRecord[]; stillFailing: TestRecord[]; missing: string[]; timedOut: TestRecord[] };
export function settleRerun(comparison: ReturnType<typeof compareSuites>, rerun: SuiteRun): TestRecord[];
export function parseTscDiagnostics(output: string): Diagnostic[];
export function newDiagnostics(before: Diagnostic[], after: Diagnostic[]): Diagnostic[];
export function assertionOf(failure: string): string;
export function assertionSite(test: TestRecord, testsRoot: string): { line: number; source: string } | null;
export function assertsEarlyClose(source: string): boolean;
