import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Rewrite from './rewrite.js';

interface FileInfo {
  path: string;
  source: string;
}
interface Api {
  report?: (message: string) => void;
}

// jscodeshift (without --no-babel) registers @babel/register before it loads a transform, and that hook would
// then compile every CommonJS module the rewrite loads (ESLint, TypeScript: ~30 s). The transform is already
// loaded when this runs, so the hook has done its job: take it off, then load the engine through import().
function removeBabelRegisterHook(): void {
  const base = require.main?.filename;
  if (!base) return;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the hook is a CommonJS module found from jscodeshift's own location
    const register = require(require.resolve('@babel/register', { paths: [base] })) as { revert?: () => void };
    register.revert?.();
  } catch {
    // jscodeshift run with --no-babel, or from elsewhere: no hook to remove.
  }
}

// A real import() that TypeScript's CommonJS output does not turn into require() (the engine is ESM).
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a fixed function body, no outside text
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<typeof Rewrite>;
let rewriteModule: Promise<typeof Rewrite> | undefined;

/**
 * jscodeshift transform `drain-terminal-event`: finds the sites with the rule
 * `drainguard/no-early-stream-close` and rewrites each into a bounded drain, verified as `drainguard fix` verifies it.
 * A file imports the helper module an earlier `drainguard fix` wrote (the one `--helperPath` names, else the nearest
 * one up from the file) where it has what the file needs; else it gets its own copy (the transform changes one file).
 * Resolves to undefined (jscodeshift: skipped) for files with nothing to change.
 */
async function transform(file: FileInfo, api: Api, options: Record<string, unknown> = {}): Promise<string | undefined> {
  if (!rewriteModule) {
    removeBabelRegisterHook();
    rewriteModule = importModule(pathToFileURL(join(__dirname, 'rewrite.js')).href);
  }
  const { rewrite, asWritten, drainBounds, findHelperModule, optionList, readHelperModule, styleSettingsFor } = await rewriteModule;
  const terminalPatterns = optionList(options.terminalPatterns);
  const closeMethods = optionList(options.closeMethods);
  const helperPath = options.helperPath ?? options['helper-path'];
  let helperModule = findHelperModule(file.path);
  if (helperPath !== undefined) {
    const named = readHelperModule(resolve(asWritten(helperPath)));
    if (named === null || named === 'foreign') throw new Error(`--helperPath ${asWritten(helperPath)}: ${named === null ? 'no such file' : 'not a helper module drainguard fix wrote'}`);
    helperModule = named;
  }
  // `--drainTimeoutMs=N` or `--drain-timeout-ms=N` (and the byte limit), checked as `drainguard fix` checks them.
  const bounds = drainBounds({
    drainTimeoutMs: options.drainTimeoutMs ?? options['drain-timeout-ms'],
    drainMaxBytes: options.drainMaxBytes ?? options['drain-max-bytes'],
  });
  const result = rewrite(file.source, file.path, {
    ...bounds,
    ruleOptions: { ...(terminalPatterns ? { terminalPatterns } : {}), ...(closeMethods ? { closeMethods } : {}) },
    helperModule: helperModule ?? undefined,
    styleSettings: styleSettingsFor(file.path),
  });
  if (result.parseError) throw new SyntaxError(`${file.path}: ${result.parseError}`);
  for (const site of result.sites) {
    if (site.status === 'manual' || site.reason) {
      api.report?.(`${file.path}:${site.line}:${site.column} ${site.bound ? `${site.status} (bounded by ${site.bound})` : site.status}${site.reason ? `: ${site.reason}` : ''}`);
    }
  }
  return result.output ?? undefined;
}

export = transform;
