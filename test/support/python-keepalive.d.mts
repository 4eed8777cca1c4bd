export interface PythonRun {
  /** What each call's collect() returned. */
  results: unknown[];
  /** Each call's duration in milliseconds, measured in Python. */
  ms: number[];
  /** The bytes each call read from the network (counted at httpcore's network stream). */
  bytes: number[];
}

/** Debian's interpreter, which sees python3-httpx, python3-anyio and python3-trio. */
export const PYTHON: string;

/** Runs `collect(client, url)` of a Python client module `calls` times (test/support/python-harness.py); rejects after timeoutMs. */
export function runPythonClient(clientPath: string, url: string, calls: number, timeoutMs?: number): Promise<PythonRun>;

/**
 * Runs `collect(client, url)` for each (url, calls) of the plan in order over one client, under an async
 * backend (asyncio, trio, anyio-asyncio, anyio-trio), with a pool of `pool` connections (default 1).
 */
export function runPythonPlan(options: {
  clientPath: string;
  plan: { url: string; calls: number }[];
  backend?: string;
  python?: string;
  timeoutMs?: number;
  pool?: number;
  /** The client process's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}): Promise<{ runs: PythonRun[]; maxrss_kb: number }>;

/** Whether Debian's python3 with httpx and anyio is there (null), or why not. */
export function pythonHttpxMissing(): string | null;

/** Whether Debian's python3 has trio (null), or why not. */
export function pythonTrioMissing(): string | null;

/** The interpreter of DRAINGUARD_MODERN_PYTHON if it has httpcore >= 0.17.3, anyio >= 4 and trio, or why not. */
export function modernPython(): { python: string } | { missing: string };
