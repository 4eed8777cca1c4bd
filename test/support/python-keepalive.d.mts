export interface PythonRun {
  /** What each call's collect() returned. */
  results: unknown[];
  /** Each call's duration in milliseconds, measured in Python. */
  ms: number[];
}

/** Debian's interpreter, which sees python3-httpx and python3-anyio. */
export const PYTHON: string;

/** Runs `collect(client, url)` of a Python client module `calls` times (test/support/python-harness.py); rejects after timeoutMs. */
export function runPythonClient(clientPath: string, url: string, calls: number, timeoutMs?: number): Promise<PythonRun>;

/** Whether Debian's python3 with httpx and anyio is there (null), or why not. */
export function pythonHttpxMissing(): string | null;
