import { rewrite, DEFAULT_DRAIN_TIMEOUT_MS, type RewriteOptions } from './rewrite.js';

interface FileInfo {
  path: string;
  source: string;
}
interface Api {
  report?: (message: string) => void;
}

function budgetFrom(options: Record<string, unknown>): number {
  const raw = options.drainTimeoutMs ?? options['drain-timeout-ms'] ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const value = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`drainTimeoutMs must be a whole number >= 0, got ${String(raw)}`);
  }
  return value;
}

/**
 * jscodeshift transform `drain-terminal-event`: finds the sites with the rule
 * `drainguard/no-early-stream-close` and rewrites each into a bounded drain.
 * Returns undefined (jscodeshift: unmodified) for files with nothing to change.
 */
function transform(file: FileInfo, api: Api, options: Record<string, unknown> = {}): string | undefined {
  const rewriteOptions: RewriteOptions = { drainTimeoutMs: budgetFrom(options) };
  const result = rewrite(file.source, file.path, rewriteOptions);
  if (result.parseError) throw new SyntaxError(`${file.path}: ${result.parseError}`);
  for (const site of result.sites) {
    if (site.status === 'manual' || site.reason) {
      api.report?.(`${file.path}:${site.line}:${site.column} ${site.status}${site.reason ? `: ${site.reason}` : ''}`);
    }
  }
  return result.output ?? undefined;
}

transform.rewrite = rewrite;
transform.DEFAULT_DRAIN_TIMEOUT_MS = DEFAULT_DRAIN_TIMEOUT_MS;

export = transform;
