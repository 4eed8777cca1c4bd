import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { DrainBounds } from '../rules/contract/drain-options.js';
import { EditBuilder } from './edits.js';
import { InlineBinding, ModuleBinding, canImport, type HelperBinding } from './helper-binding.js';
import type { PieceName } from './helpers.js';
import { isTypeScriptPath } from './language.js';
import { applyEdits, type Edit } from './layout.js';
import type { Plan } from './plan.js';
import { detectStyle, type StyleSettings } from './style.js';

export interface BuildOptions {
  /** The bounds a file's own copy of the helpers is written with. */
  bounds: DrainBounds;
  /**
   * The repository's helper module, which the sites import; without it, or where the file cannot import it
   * (JavaScript and a TypeScript module, CommonJS), the file gets its own copy of the pieces it uses.
   */
  helperModule?: HelperModuleRef;
  /** The repository's formatter settings (print width, quotes, …); the rest is read from the file. */
  styleSettings?: StyleSettings;
}

export interface HelperModuleRef {
  /** Absolute path. */
  path: string;
  /**
   * The pieces it exports, where it cannot be added to (the jscodeshift transform and the rule's suggestion change
   * one file): sites that need another piece make the file carry its own copy instead.
   */
  pieces?: ReadonlySet<PieceName>;
  /** The bounds it holds, where it exists already (they, not the options', bound the drains that import it). */
  bounds?: DrainBounds;
}

export interface BuiltOutput {
  /** The new text, or null when the plans change nothing. */
  output: string | null;
  edits: Edit[];
  /** The pieces the output imports from the helper module. */
  imported: PieceName[];
}

/** The text with the plans' edits and the helpers they use (imported from the helper module, or the file's own copy). */
export function buildOutput(text: string, filePath: string, sourceCode: SourceCode, plans: readonly Plan[], options: BuildOptions): BuiltOutput {
  const style = detectStyle(text, isTypeScriptPath(filePath), options.styleSettings);
  const program = sourceCode.ast;
  const build = (binding: HelperBinding): Edit[] => {
    const builder = new EditBuilder(text, sourceCode, style, binding);
    for (const plan of plans) {
      if (plan.kind === 'reader') builder.reader(plan);
      else if (plan.kind === 'dataHandler') builder.dataHandler(plan);
      else if (plan.kind === 'loop') builder.loop(plan);
    }
    return builder.edits();
  };
  let edits: Edit[] | null = null;
  let imported: PieceName[] = [];
  const module = options.helperModule;
  if (module && canImport(filePath, program, module.path)) {
    const binding = new ModuleBinding(program, text, style, filePath, module.path);
    const moduleEdits = build(binding);
    const available = module.pieces;
    if (!available || [...binding.used].every((piece) => available.has(piece))) {
      edits = moduleEdits;
      imported = [...binding.used];
    }
  }
  edits ??= build(new InlineBinding(text, program, style, options.bounds));
  return { output: edits.length === 0 ? null : applyEdits(text, edits), edits, imported };
}
