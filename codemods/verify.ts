import { findSites, type FindSitesOptions } from './find-sites.js';

/**
 * Checks a rewritten text before anything is written or suggested: it must parse with the parser that read the
 * original, and the rule, run on it again, must report no more sites than the ones left as they were (`remaining`).
 * Returns why the rewrite fails, or null when it passes.
 */
export function verifyRewrite(output: string, filePath: string, options: FindSitesOptions, remaining: number): string | null {
  const again = findSites(output.replace(/^\uFEFF/, ''), filePath, options);
  if (again.parseError) return `rolled back: the rewrite does not parse (${again.parseError})`;
  const reported = again.sites.filter((site) => !site.partOf).length;
  if (reported > remaining) return 'rolled back: the rule still reports this site after the rewrite';
  return null;
}
