import type { ESLint } from 'eslint';

export const FORMATS = ['stylish', 'json', 'sarif'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(name: string): name is Format {
  return (FORMATS as readonly string[]).includes(name);
}

/** Colors for stylish output: only on a terminal that supports them, never with NO_COLOR. */
export function stdoutSupportsColor(): boolean {
  if (process.env.NO_COLOR) return false;
  return Boolean(process.stdout.isTTY && process.stdout.hasColors?.());
}

/**
 * Renders results: `stylish` and `json` exactly as `eslint --format` does, `sarif` with
 * node-sarif-builder. ESLint is loaded only for a stylish report with something to show: its json
 * formatter is `JSON.stringify(results)`, and stylish prints nothing for results without messages.
 */
export async function formatResults(
  results: ESLint.LintResult[],
  format: Format,
  options: { cwd: string; color: boolean },
): Promise<string> {
  // node-sarif-builder is loaded only when SARIF is asked for.
  if (format === 'sarif') return (await import('./sarif.js')).formatSarif(results, options.cwd);
  if (format === 'json') return JSON.stringify(results);
  if (results.every((result) => result.messages.length === 0)) return '';
  const { createESLint } = await import('./eslint-setup.js');
  const formatter = await (await createESLint({ cwd: options.cwd })).loadFormatter(format);
  return formatter.format(results, { color: options.color });
}
