import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { SUGGESTIONS_ENV } from './oxlint-suggestions.js';
import type { LaunchRequest } from './oxlint-launcher.js';
import { OXLINT_OPTIMIZE_FROM_BYTES } from './v8-tiering.js';

export interface OxlintDiagnostic {
  message: string;
  code?: string;
  /** Absent when oxlint could not open a file ("Failed to open file … with error …"). */
  filename?: string;
  labels?: { span: { offset: number; length: number } }[];
}

/**
 * How long an oxlint process may take before it is killed and ESLint lints its files instead: far
 * above what a batch needs, even on a slow machine, so only a stuck process
 * hits it. `DRAINGUARD_OXLINT_TIMEOUT_MS` sets it (a test sets it low to exercise the fallback).
 */
function timeLimitMs(batchBytes: number): number {
  const fromEnv = Number(process.env.DRAINGUARD_OXLINT_TIMEOUT_MS);
  return fromEnv > 0 ? fromEnv : 120_000 + 30 * Math.ceil(batchBytes / 1024);
}

/**
 * The oxlint process's environment: this one's, plus where the plugin records suggestions, less
 * NODE_EXTRA_CA_CERTS: Node reads and parses that certificate file as it starts (a system bundle more than doubles
 * the start of `node -e 0`), and oxlint makes no TLS connection.
 */
function childEnv(suggestionsFile: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, [SUGGESTIONS_ENV]: suggestionsFile };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * Below this much text an oxlint process parses on one thread (`--threads=1`). Its parse is then short, while the JS
 * plugin runs on one thread for much longer anyway; oxlint's other parser threads cost more to start and feed than they
 * save. A larger batch keeps every thread: on the corpus's big batches one thread each made the run slower
 * (docs/engines.md has both runs).
 */
export const ONE_PARSER_THREAD_BELOW_BYTES = 1024 * 1024;

/** What an oxlint process is asked to do with `files` (`bytes` of text): oxlint's arguments and its V8 tiering. */
export function oxlintRequest(config: string, files: readonly string[], bytes: number): LaunchRequest {
  const threads = bytes < ONE_PARSER_THREAD_BELOW_BYTES ? ['--threads=1'] : [];
  return {
    args: ['-c', config, '--format', 'json', '--no-ignore', '--disable-nested-config', ...threads, ...files],
    optimize: bytes >= OXLINT_OPTIMIZE_FROM_BYTES,
  };
}

export interface LaunchPaths {
  /** dist/oxlint-launcher.js (cli/engines/oxlint-launcher.ts). */
  launcher: string;
  oxlintBin: string;
  plugin: string;
}

/**
 * One oxlint process, started before its files are known (cli/engines/oxlint-launcher.ts): it loads oxlint and
 * drainguard's plugin while the caller reads files, then lints the batch it is handed, or exits unused.
 * The plugin writes each report's suggestions to `suggestionsFile` (see cli/engines/oxlint-plugin.ts).
 */
export class OxlintProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly exited: Promise<number | null>;
  private stdout = '';

  constructor(
    paths: LaunchPaths,
    cwd: string,
    readonly suggestionsFile: string,
  ) {
    this.child = spawn(process.execPath, [paths.launcher, paths.oxlintBin, paths.plugin], { cwd, env: childEnv(suggestionsFile), stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    // A process that died before its request was written: its exit code says so.
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.child.on('error', () => resolve(null));
      this.child.on('close', (code) => resolve(code));
    });
  }

  /**
   * oxlint's diagnostics for `files` (`bytes` of text), or null when it did not run to the end (a crash, or
   * killed at its time limit).
   */
  async lint(config: string, files: readonly string[], bytes: number): Promise<OxlintDiagnostic[] | null> {
    this.child.stdin.end(JSON.stringify(oxlintRequest(config, files, bytes)));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeLimitMs(bytes));
    const code = await this.exited;
    clearTimeout(timer);
    if (code !== 0 && code !== 1) return null;
    try {
      return (JSON.parse(this.stdout) as { diagnostics: OxlintDiagnostic[] }).diagnostics;
    } catch {
      return null;
    }
  }

  /** Lets a process that was not needed exit. */
  dismiss(): void {
    this.child.stdin.end();
  }
}
