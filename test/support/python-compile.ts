import { spawnSync } from 'node:child_process';

/** Debian's interpreter (it sees python3-httpx and python3-anyio; a `python3` earlier on PATH may not). */
export const PYTHON = '/usr/bin/python3';

/** Compiles Python source with the real interpreter (what `python3 -m py_compile` does): null when it compiles, else the error. */
export function pythonCompileError(text: string, name = '<fixture>'): string | null {
  const run = spawnSync(PYTHON, ['-c', 'import sys; compile(sys.stdin.read(), sys.argv[1], "exec")', name], { input: text, encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0 ? null : run.stderr.trim();
}
