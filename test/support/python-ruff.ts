// ruff (from npm, @astral-sh/ruff-wasm-nodejs) on Python text: what a maintainer's CI says about a rewrite.
import { PositionEncoding, Workspace } from '@astral-sh/ruff-wasm-nodejs';

interface RuffDiagnostic {
  code: string | null;
  message: string;
  start_location: { row: number; column: number };
}

/** ruff's settings for a check: by default pycodestyle, pyflakes, isort and bugbear (`E`, `F`, `I`, `B`) at ruff's defaults. */
export type RuffSettings = Record<string, unknown>;

export const DEFAULT_RUFF: RuffSettings = { lint: { select: ['E', 'F', 'I', 'B'] } };

const workspaces = new Map<string, Workspace>();

/** `ROW:COLUMN CODE message` for each diagnostic ruff gives on `text`, in order. */
export function ruffDiagnostics(text: string, settings: RuffSettings = DEFAULT_RUFF): string[] {
  const key = JSON.stringify(settings);
  let workspace = workspaces.get(key);
  if (!workspace) {
    workspace = new Workspace(settings, PositionEncoding.Utf16);
    workspaces.set(key, workspace);
  }
  return (workspace.check(text) as RuffDiagnostic[]).map((d) => `${d.start_location.row}:${d.start_location.column} ${d.code ?? 'syntax'} ${d.message}`);
}
