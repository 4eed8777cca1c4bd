import path from 'node:path';
import type { DrainBounds } from '../../rules/contract/drain-options.js';
import { extendHelperModule, helperModuleText } from '../../rules/fix/helper-module.js';
import { detectStyle } from '../../rules/fix/style.js';
import { isTypeScriptPath } from '../../rules/parser-options.js';
import type { FixArgs } from './args.js';
import { boundsOf, type FixRun } from './fix-run.js';
import { formatRewrite } from './formatter.js';
import type { HelperChoice } from './helper-choice.js';
import { rollBack, type InMemory, type ModuleText, type Rewritten } from './in-memory.js';
import { styleSettings } from './rewrite-files.js';
import { allAdded, hasTsconfig, type Verifier } from './verify.js';

/** Writes the helper modules' texts in memory, each type-checked on its own where the run checks types. */
export async function checkHelperModules(run: FixRun, work: InMemory): Promise<void> {
  if (run.signal.aborted) return;
  run.phase = 'type-checking';
  run.progress.show('type-checking the helper module');
  work.modules = await finishHelperModules(run, work.rewritten, run.verifier);
}

/** The new text of each helper module the rewritten files import (see finishHelperModule), until Ctrl-C. */
export async function finishHelperModules(run: FixRun, rewritten: Rewritten[], verifier: Verifier | undefined): Promise<ModuleText[]> {
  const done: ModuleText[] = [];
  for (const choice of run.choices) {
    if (run.signal.aborted) break;
    const module = await finishHelperModule(choice, rewritten, run.args, boundsOf(run.args, choice), verifier, run.signal);
    if (module) done.push(module);
  }
  return done;
}

/**
 * A helper module's new text: the pieces every file that imports it uses (added to an existing module, whose own
 * text stays), laid out like the first of those files and the repository's settings, formatted with its formatter;
 * null where nothing changes. A TypeScript module that adds a diagnostic to the project rolls back its importers.
 */
async function finishHelperModule(helper: HelperChoice, rewritten: Rewritten[], args: FixArgs, bounds: DrainBounds, verifier: Verifier | undefined, signal: AbortSignal): Promise<ModuleText | null> {
  const importers = rewritten.filter((entry) => entry.output !== null && entry.helperPieces.length > 0 && helper.files.includes(entry.file));
  if (importers.length === 0) return null;
  const pieces = new Set(importers.flatMap((entry) => entry.helperPieces));
  const style = detectStyle(importers[0].source.replace(/^\uFEFF/, ''), isTypeScriptPath(helper.path), await styleSettings(helper.path, signal));
  const explicit = args.drainTimeoutMs !== undefined || args.drainMaxBytes !== undefined;
  const text = helper.existing ? extendHelperModule(helper.existing, pieces, style, explicit ? bounds : undefined) : helperModuleText(pieces, style, bounds);
  if (text === null) return null;
  const formatted = await formatRewrite(helper.path, null, text, signal);
  if (verifier && isTypeScriptPath(helper.path) && (args.verify === 'on' || hasTsconfig(helper.path))) {
    // Checked on its own first (nothing imports it yet): only what it adds to the project counts.
    const change = { path: helper.path, before: helper.existing?.text ?? null, after: formatted.text };
    const [diagnostic] = allAdded(await verifier.addedByFile([change], importers[0].file, { roots: [helper.path] }));
    if (diagnostic !== undefined) {
      for (const entry of importers) rollBack(entry, `rolled back: the helper module ${path.basename(helper.path)} does not type-check here: ${diagnostic}`);
      return null;
    }
  }
  return { path: helper.path, text: formatted.text, existing: helper.existing, ...(formatted.problem ? { formatProblem: formatted.problem } : {}) };
}
