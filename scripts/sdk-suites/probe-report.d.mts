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
export function rowWorse(before: Summary, after: Summary, limits: Limits): string[];
export function probeRows(before: unknown, after: unknown, limits: Limits): { caller: string; mode: string; before: Summary; after: Summary; worse: string[] }[];
export function probeWorse(before: unknown, after: unknown, limits: Limits): boolean;
export function formatProbeTable(before: unknown, after: unknown, limits: Limits): string[];
