export const DEFAULT_DRAIN_MAX_BYTES: number;
export const BYTES_SLACK: number;
export const CONNECTIONS_SLACK: number;
export const WAIT_SLACK_MS: number;
export interface Stats {
  p50: number | null;
  max: number | null;
}
export interface Summary {
  connectionsBackToBack: number;
  connectionsPaced: number;
  requests: number;
  bytes: Stats;
  wait: Stats;
  letGo: Stats;
  closedEarly: number;
  openAtEnd: number;
  errors: number;
  errorTexts: string[];
  messages: string[][];
  expected: boolean | null;
}
export interface Limits {
  maxBytes: number;
}
export function drainMaxBytes(fixArgs: string[]): number;
export function p50max(values: number[]): Stats;
export function summarize(scenarios: { backToBack: unknown; paced: unknown }, expected: string[] | undefined): Summary;
export interface Reason {
  kind: 'bytes' | 'connections' | 'wait' | 'errors' | 'messages' | 'open';
  text: string;
}
export interface Row {
  caller: string;
  mode: string;
  before: Summary;
  after: Summary;
  worse: Reason[];
}
export function rowWorse(before: Summary, after: Summary, limits: Limits): Reason[];
export function probeRows(before: unknown, after: unknown, limits: Limits): Row[];
export function rowsToRemeasure(before: unknown, after: unknown, limits: Limits): Row[];
export function mergeRemeasured(before: unknown, after: unknown, againBefore: unknown, againAfter: unknown, rows: Row[]): void;
export function probeWorse(before: unknown, after: unknown, limits: Limits): boolean;
export function formatProbeTable(before: unknown, after: unknown, limits: Limits): string[];
export const CALLER_LABELS: Record<string, string>;
export const MODE_LABELS: Record<string, string>;
