import path from 'node:path';
import { isTypeScriptPath } from '../../rules/parser-options.js';
import type { FixRun } from './fix-run.js';
import { finishHelperModules } from './helper-modules.js';
import { rollBack, type InMemory, type ModuleText, type Rewritten } from './in-memory.js';
import { allAdded, hasTsconfig, projectOf, type FileChange, type Verifier } from './verify.js';

/**
 * Type-checks the rewritten TypeScript files a tsconfig.json applies to (every one with --verify), project by project,
 * rolling back each rewrite that adds a diagnostic; where one was rolled back, the helper modules are finished again
 * with only what the files that stay rewritten import, and the project is checked again.
 */
export async function typeCheckRewrites(run: FixRun, work: InMemory, toWrite: readonly Rewritten[]): Promise<void> {
  const { verifier, signal, args } = run;
  if (!verifier || signal.aborted) return;
  run.phase = 'type-checking';
  const show = (step: string): void => run.progress.show(step);
  const checked = toWrite.filter((entry) => isTypeScriptPath(entry.file) && (args.verify === 'on' || hasTsconfig(entry.file)));
  let pending = groupBy(checked, (entry) => projectOf(entry.file));
  while (pending.size > 0 && !signal.aborted) {
    const again = new Map<string, Rewritten[]>();
    for (const [project, group] of pending) {
      const entries = group.filter((entry) => entry.output !== null);
      if (entries.length === 0) continue;
      show(`type-checking ${entries.length} rewritten file${entries.length === 1 ? '' : 's'} (${path.relative(run.cwd, project) || project})`);
      const moduleOf = (entry: Rewritten): ModuleText | undefined => work.modules.find((module) => module.path === run.choiceOf.get(entry.file)?.path);
      if (await verifyTypes(entries, verifier, moduleOf, (entry) => show(`type-checking ${path.relative(run.cwd, entry.file)} alone`))) again.set(project, entries);
    }
    // Only what the files that stay rewritten import; checked again with it where a rewrite was rolled back.
    if (again.size > 0) work.modules = await finishHelperModules(run, work.rewritten, undefined);
    pending = again;
  }
}

/**
 * Type-checks one project's rewritten TypeScript files, all at once, before and after (with the helper modules as they
 * will be): a file whose own diagnostics gain one is rolled back. A diagnostic the program gains that is no file's
 * (options, global) is found by checking each file alone, with the disk's other files; one that only their combination
 * adds is not blamed on any. Whether a rewrite was rolled back (the rest is then checked again without it).
 */
async function verifyTypes(entries: Rewritten[], verifier: Verifier, moduleOf: (entry: Rewritten) => ModuleText | undefined, showAlone: (entry: Rewritten) => void): Promise<boolean> {
  const changesOf = (group: readonly Rewritten[]): FileChange[] => {
    const changes: FileChange[] = group.map((entry) => ({ path: entry.file, before: entry.source, after: entry.output! }));
    for (const module of new Set(group.filter((entry) => entry.helperPieces.length > 0).map(moduleOf))) {
      if (module) changes.push({ path: module.path, before: module.existing?.text ?? null, after: module.text });
    }
    return changes;
  };
  const reason = (diagnostic: string): string => `rolled back: the rewrite adds a TypeScript diagnostic: ${diagnostic}`;
  const added = await verifier.addedByFile(changesOf(entries), entries[0].file, { check: entries.map((entry) => entry.file) });
  let rolledBack = false;
  for (const entry of entries) {
    const [diagnostic] = added.files[entry.file] ?? [];
    if (diagnostic === undefined) continue;
    rollBack(entry, reason(diagnostic));
    rolledBack = true;
  }
  if (added.program.length > 0) {
    for (const entry of entries) {
      if (entry.output === null) continue;
      showAlone(entry);
      const [diagnostic] = allAdded(await verifier.addedByFile(changesOf([entry]), entry.file, { check: [entry.file] }));
      if (diagnostic === undefined) continue;
      rollBack(entry, reason(diagnostic));
      rolledBack = true;
    }
  }
  return rolledBack;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
