// One run of `drainguard prove`: the user's command against a fresh stream server in one mode, with the
// server's counts and the time each call took to come back after its terminal event.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import type { RequestRecord } from '../../testing/counting-server.js';
import type { AfterTerminal, StreamServerOptions } from '../../testing/options.js';
import { startStreamServer } from '../../testing/stream-server.js';

export interface ModeRun {
  mode: AfterTerminal;
  /** Run with drainguard/undici installed (`prove --transport`); absent on a run without that flag. */
  transport?: boolean;
  requests: number;
  connections: number;
  closedEarly: number;
  /** Requests beyond the calls asked for (a retry after an error, a reconnect). */
  retries: number;
  /**
   * The longest time from a terminal event to the next request (the call returned and the next began);
   * for a command that made one call, to its exit. null when no terminal event was sent.
   */
  slowestReturnMs: number | null;
  returnMeasuredTo: 'next call' | 'exit';
  /**
   * The most bytes the server sent on one response after its terminal event (until the body ended or was closed);
   * null when no terminal event was sent. A drain bounded by bytes keeps it near its limit, whatever the body.
   */
  mostBytesAfterTerminal: number | null;
  exitCode: number | null;
  signal: string | null;
  /** Killed at the time limit. */
  timedOut: boolean;
  /** The error the command reported on stderr (its last unindented `…Error: …` line, else its last line). */
  errorLine: string;
}

export interface RunSetup {
  command: string[];
  calls: number;
  timeoutMs: number;
  server: StreamServerOptions;
}

/** How a run starts the command: as it is, or with drainguard/undici installed in every Node process it starts. */
export interface RunVariant {
  /** The `--import` module that installs the transport (a file: URL): set for a run with it. */
  transportImport?: string;
}

/** NODE_OPTIONS with `--import <module>` added: Node processes the command starts load the transport first. */
export function withImport(nodeOptions: string | undefined, module: string): string {
  // A file: URL has no space or quote left (they are percent-encoded), so it needs no quoting in NODE_OPTIONS.
  return [nodeOptions?.trim(), `--import=${module}`].filter(Boolean).join(' ');
}

/** Thrown when the command cannot be started at all (not found, not executable). */
export class CommandNotStarted extends Error {}

const KEEP_STDERR = 64 * 1024;

/** The slowest time from a terminal event to the next call, or to the exit when only one call was made. */
function slowestReturn(log: readonly RequestRecord[], exitAt: number): Pick<ModeRun, 'slowestReturnMs' | 'returnMeasuredTo'> {
  const gaps: number[] = [];
  for (let i = 0; i + 1 < log.length; i++) {
    const terminalAt = log[i].terminalAt;
    if (terminalAt !== undefined) gaps.push(Math.max(0, log[i + 1].receivedAt - terminalAt));
  }
  if (gaps.length > 0) return { slowestReturnMs: Math.max(...gaps), returnMeasuredTo: 'next call' };
  const lastTerminal = log.at(-1)?.terminalAt;
  return { slowestReturnMs: lastTerminal === undefined ? null : Math.max(0, exitAt - lastTerminal), returnMeasuredTo: 'exit' };
}

/**
 * The line of stderr that names the error: Node ends an uncaught error's report with its version and
 * Python a traceback with the exception, so the last unindented `SomeError: …` line, else the last line (without
 * the colour FORCE_COLOR asks for).
 */
function errorLine(stderr: string): string {
  const lines = stripVTControlCharacters(stderr).split('\n').filter((line) => line.trim() !== '' && !/^Node\.js v\d/.test(line));
  const named = lines.filter((line) => /^[\w.$]*(Error|Exception)\b/.test(line));
  return (named.at(-1) ?? lines.at(-1) ?? '').trim();
}

export async function runMode(mode: AfterTerminal, setup: RunSetup, variant: RunVariant = {}): Promise<ModeRun> {
  const server = await startStreamServer({ ...setup.server, mode });
  try {
    const [file, ...args] = setup.command;
    const child = spawn(file, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group: at the time limit the whole group (a shell, npx and what they start) is killed.
      detached: true,
      env: {
        ...process.env,
        DRAINGUARD_URL: server.url,
        DRAINGUARD_STATS_URL: server.statsUrl,
        DRAINGUARD_CALLS: String(setup.calls),
        DRAINGUARD_MODE: mode,
        ...(variant.transportImport ? { NODE_OPTIONS: withImport(process.env.NODE_OPTIONS, variant.transportImport) } : {}),
      },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-KEEP_STDERR);
    });
    let timedOut = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, setup.timeoutMs);
    // The command runs in a process group of its own, which a Ctrl-C at the terminal does not reach.
    const interrupted = (signal: NodeJS.Signals): void => {
      killGroup();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', interrupted);
    process.once('SIGTERM', interrupted);
    let exitAt = 0;
    child.once('exit', () => (exitAt = performance.now()));
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new CommandNotStarted(`cannot run '${file}': ${error.code === 'ENOENT' ? 'command not found' : error.message}`));
      });
      // 'close': the command exited and its stderr is read to the end (a background child still holding it open is killed at the time limit).
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    }).finally(() => {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
    });
    // Let the server see the closes of a command that just exited.
    await server.waitFor((s) => s.finished + s.closedEarly >= s.requests, 1000).catch(() => {});
    const stats = server.stats();
    const log = server.log();
    const afterTerminal = log.flatMap((record) => (record.bytesAfterTerminal === undefined ? [] : [record.bytesAfterTerminal]));
    return {
      mode,
      ...(variant.transportImport ? { transport: true } : {}),
      requests: stats.requests,
      connections: stats.connections,
      closedEarly: stats.closedEarly,
      retries: Math.max(0, stats.requests - setup.calls),
      ...slowestReturn(log, exitAt),
      mostBytesAfterTerminal: afterTerminal.length > 0 ? Math.max(...afterTerminal) : null,
      exitCode: exit.code,
      signal: exit.signal,
      timedOut,
      errorLine: errorLine(stderr),
    };
  } finally {
    await server.close();
  }
}
