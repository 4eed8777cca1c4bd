// The table `drainguard prove` prints: one row per body the command ran against, as aligned text,
// as Markdown for a pull request description, or as JSON.
import { DEFAULT_TAIL_DELAY_MS, DEFAULT_TRICKLE_INTERVAL_MS, type AfterTerminal, type StreamServerOptions } from '../../testing/options.js';
import type { ModeRun } from './run.js';

export interface ProveReport {
  command: string[];
  calls: number;
  timeoutMs: number;
  server: StreamServerOptions;
  /** Each mode ran without and with drainguard/undici (`--transport`): a column says which. */
  transport?: boolean;
  runs: ModeRun[];
}

const HEADERS = ['after the terminal event', 'requests', 'connections', 'closed early', 'most sent after it', 'slowest return', 'exit'];
const TRANSPORT_HEADER = 'drainguard/undici';

/** The table's columns: with --transport, a second one says whether the run had the transport. */
const headers = (report: ProveReport): string[] => (report.transport ? [HEADERS[0], TRANSPORT_HEADER, ...HEADERS.slice(1)] : HEADERS);

function bodyLabel(mode: AfterTerminal, server: StreamServerOptions): string {
  const tail = server.tailDelayMs ?? DEFAULT_TAIL_DELAY_MS;
  switch (mode) {
    case 'end':
      return `body ends ${tail} ms later`;
    case 'silent':
      return 'held open, silent';
    case 'trickle':
      return `keep-alive every ${server.trickleIntervalMs ?? DEFAULT_TRICKLE_INTERVAL_MS} ms`;
    case 'flood':
      return 'floods bytes';
    case 'endless':
      return 'one endless line';
    case 'reset':
      return `connection reset ${tail} ms later`;
  }
}

/** 812 B, 128 KiB, 3.4 MiB: binary units, one decimal from MiB on. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Whether the command ran to a clean exit. */
export const runSucceeded = (run: ModeRun): boolean => !run.timedOut && run.exitCode === 0;

function cells(run: ModeRun, report: ProveReport): string[] {
  const slowest = run.timedOut
    ? `hung (killed at ${report.timeoutMs} ms)`
    : run.slowestReturnMs === null
      ? '-'
      : `${Math.round(run.slowestReturnMs)} ms${run.returnMeasuredTo === 'exit' ? ' (to exit)' : ''}`;
  const exit = run.timedOut ? 'killed' : run.signal ?? String(run.exitCode);
  return [
    bodyLabel(run.mode, report.server),
    ...(report.transport ? [run.transport ? 'with' : 'without'] : []),
    run.retries > 0 ? `${run.requests} (${run.retries} more than the calls)` : String(run.requests),
    String(run.connections),
    String(run.closedEarly),
    run.mostBytesAfterTerminal === null ? '-' : byteSize(run.mostBytesAfterTerminal),
    slowest,
    exit,
  ];
}

function title(report: ProveReport): string {
  const each = report.transport ? ', each without and with drainguard/undici (node --import)' : '';
  return `${report.calls} call${report.calls === 1 ? '' : 's'} per run against ${report.server.format ?? 'sse'} bodies${each}`;
}

const LEGEND =
  'slowest return: the longest time from a terminal event to the next request (to the exit for a single call); ' +
  'most sent after it: the most bytes the server sent on one response after its terminal event, the client\'s and the kernel\'s buffers included; ' +
  'connections and closed early are counted by the server.';

function failures(report: ProveReport): string[] {
  return report.runs
    .filter((run) => !runSucceeded(run))
    .map((run) => `${bodyLabel(run.mode, report.server)}${report.transport ? (run.transport ? ', with drainguard/undici' : ', without') : ''}: ${run.timedOut ? 'killed at the time limit' : `exit ${run.signal ?? run.exitCode}`}${run.errorLine ? `: ${run.errorLine}` : ''}`);
}

export function textReport(report: ProveReport): string {
  const columns = headers(report);
  const rows = [columns, ...report.runs.map((run) => cells(run, report))];
  const widths = columns.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
  const out = [`drainguard prove: ${report.command.join(' ')}`, title(report), '', ...lines, '', LEGEND];
  const failed = failures(report);
  if (failed.length > 0) out.push('', 'failed runs:', ...failed.map((line) => `  ${line}`));
  return `${out.join('\n')}\n`;
}

const escapeCell = (cell: string): string => cell.replace(/\|/g, '\\|');

export function markdownReport(report: ProveReport): string {
  const rows = report.runs.map((run) => `| ${cells(run, report).map(escapeCell).join(' | ')} |`);
  const out = [
    `**drainguard prove** \`${report.command.join(' ')}\`: ${title(report)}`,
    '',
    `| ${headers(report).join(' | ')} |`,
    `| --- |${report.transport ? ' --- |' : ''} ---: | ---: | ---: | ---: | ---: | --- |`,
    ...rows,
    '',
    `<sub>${LEGEND}</sub>`,
  ];
  const failed = failures(report);
  if (failed.length > 0) out.push('', ...failed.map((line) => `- ${line}`));
  return `${out.join('\n')}\n`;
}

export function jsonReport(report: ProveReport): string {
  const { command, calls, timeoutMs, runs } = report;
  return `${JSON.stringify({ command, calls, format: report.server.format ?? 'sse', timeoutMs, ...(report.transport ? { transport: true } : {}), runs }, null, 2)}\n`;
}
