import type { ESLint } from 'eslint';
import { requireStylishFormatter } from '../../rules/eslint-types.js';

export const FORMATS = ['stylish', 'json', 'sarif'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(name: string): name is Format {
  return FORMATS.some((format) => format === name);
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
  // As ESLint#loadFormatter('stylish').format does: results sorted by path, then ESLint's own stylish formatter.
  const sorted = [...results].sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  // Required from its file: ESLint exports it only through its ESLint class, whose loading (file, ignore and
  // config-file machinery) cost a run with reports more than the formatting.
  return requireStylishFormatter()(sorted, { color: options.color, cwd: options.cwd });
}
