import type { ModuleImports } from './imports.js';
import { versionAtLeast, type PythonProject } from './project.js';

/**
 * How a drain is bounded in time:
 * - `anyio`: `anyio.move_on_after`, in async code of a project that requires anyio >= 4 (whose cancel
 *   scopes leave the task as they found it on asyncio too) and whose module uses anyio or no other
 *   async library;
 * - `trio`: `trio.move_on_after`, in async code of a module that uses trio alone;
 * - `asyncio`: `asyncio.timeout`, in async code of a module that uses asyncio alone, in a project that
 *   supports Python >= 3.11 only;
 * - `socket`: a timer thread that shuts the response's socket down, which ends a blocked read: sync
 *   code (where nothing else can interrupt the read), and async code none of the above applies to;
 * - `none`: no time bound (`--drain-timeout-ms 0`).
 * A cancel scope is used only where the project's HTTP stack leaves its pool clean when a read is
 * cancelled: httpx >= 0.25 (httpcore >= 0.17.3, which shields the close), or httpx2. Measured here with
 * httpcore 0.16.3 (Debian's), a cancelled body read leaves its connection checked out and the next
 * request waits for the pool forever, under trio as under asyncio.
 */
export type Bound = 'anyio' | 'trio' | 'asyncio' | 'socket' | 'none';

export function cancellationSafeTransport(project: PythonProject): boolean {
  return (
    versionAtLeast(project.lowerBound('httpx'), [0, 25]) ||
    project.lowerBound('httpx2') !== undefined ||
    versionAtLeast(project.lowerBound('httpcore'), [0, 17, 3]) ||
    project.lowerBound('httpcore2') !== undefined
  );
}

export function chooseBound(asyncLoop: boolean, budgetMs: number, imports: ModuleImports, project: PythonProject): Bound {
  if (budgetMs === 0) return 'none';
  if (!asyncLoop || !cancellationSafeTransport(project)) return 'socket';
  const anyio = imports.uses('anyio');
  const trio = imports.uses('trio');
  const asyncio = imports.uses('asyncio');
  if (trio && !anyio && !asyncio) return 'trio';
  if (versionAtLeast(project.lowerBound('anyio'), [4]) && (anyio || (!trio && !asyncio))) return 'anyio';
  if (asyncio && !anyio && !trio && versionAtLeast(project.requiresPython, [3, 11])) return 'asyncio';
  return 'socket';
}
