import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { DrainBounds } from '../contract/drain-options.js';
import { EditBuilder } from './edits.js';
import { InlineBinding, ModuleBinding, canImport, type HelperBinding, type OwnCopy } from './helper-binding.js';
import type { PieceName } from './helpers.js';
import { isTypeScriptPath } from '../parser-options.js';
import type { Edit } from '../contract/apply-edits.js';
import type { Plan } from './plan.js';
import { detectStyle, type Style, type StyleSettings } from './style.js';

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
  /** The edits (none when the plans change nothing); `applyEdits(text, edits)` is the new text. */
  edits: Edit[];
  /** The pieces the output imports from the helper module. */
  imported: PieceName[];
  /** The edit of `edits` that inserts the file's own copy of the helpers, where it gets one. */
  ownCopy?: OwnCopy;
}

let lastStyle: { text: string; filePath: string; settings: StyleSettings | undefined; style: Style } | undefined;

/** The file's style, read once per text (the rule's suggestions build one rewrite per site of a file). */
function styleOf(text: string, filePath: string, settings: StyleSettings | undefined): Style {
  if (lastStyle?.text !== text || lastStyle.filePath !== filePath || lastStyle.settings !== settings) {
    lastStyle = { text, filePath, settings, style: detectStyle(text, isTypeScriptPath(filePath), settings) };
  }
  return lastStyle.style;
}

/** The edits of the plans and of the helpers they use (imported from the helper module, or the file's own copy). */
export function buildOutput(text: string, filePath: string, sourceCode: SourceCode, plans: readonly Plan[], options: BuildOptions): BuiltOutput {
  const style = styleOf(text, filePath, options.styleSettings);
  const program = sourceCode.ast;
  const build = (binding: HelperBinding): Edit[] => {
    const builder = new EditBuilder(text, sourceCode, style, binding);
    for (const plan of plans) {
      if (plan.kind === 'reader') builder.reader(plan);
      else if (plan.kind === 'iteratorTap') builder.iteratorTap(plan);
      else if (plan.kind === 'dataHandler') builder.dataHandler(plan);
      else if (plan.kind === 'loop') builder.loop(plan);
    }
    return builder.edits();
  };
  const module = options.helperModule;
  if (module && canImport(filePath, program, module.path)) {
    const binding = new ModuleBinding(program, text, style, filePath, module.path);
    const edits = build(binding);
    const available = module.pieces;
    if (!available || [...binding.used].every((piece) => available.has(piece))) return { edits, imported: [...binding.used] };
  }
  const inline = new InlineBinding(text, program, style, options.bounds);
  const edits = build(inline);
  return inline.copy ? { edits, imported: [], ownCopy: inline.copy } : { edits, imported: [] };
}
