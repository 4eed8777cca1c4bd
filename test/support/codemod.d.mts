/** The repository root. */
export const ROOT: string;
/** <root>/dist/codemod.cjs */
export const DIST_CODEMOD: string;

/** Run `node scripts/build.mjs` when dist/codemod.cjs is missing or older than codemods/ or rules/; says what it did. */
export function ensureCodemodBuilt(): string | undefined;

export interface ApplyCodemodOptions {
  /** The built transform (default dist/codemod.cjs). */
  codemodPath?: string;
  /** The transform's options (default { drainTimeoutMs: 1000 }). */
  transformOptions?: Record<string, unknown>;
  /** Where to write the rewrite (default a new directory under os.tmpdir()). */
  outDir?: string;
}

export interface CodemodResult {
  /** The transform returned a new source. */
  changed: boolean;
  source: string;
  /** The rewritten source (when changed). */
  output?: string;
  /** Where the rewrite was written, `<name>.fixed.mjs` (when changed). */
  outPath?: string;
  /** Why nothing came out (transform returned nothing, threw, is missing, …). */
  reason?: string;
  /** What the transform passed to api.report(). */
  reports: string[];
}

/** Apply the jscodeshift transform to one file; never throws for a transform failure. */
export function applyCodemod(sourcePath: string, options?: ApplyCodemodOptions): Promise<CodemodResult>;
