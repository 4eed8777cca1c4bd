import { verifyRewriteWith, type FindSitesOptions } from '../rules/lint-sites.js';
import { createNoEarlyStreamClose } from '../rules/no-early-stream-close.js';

/**
 * Checks a rewritten text before anything is written: it must parse with the parser that read the original, and the
 * rule, run on it again, must report no more sites than the ones left as they were (`remaining`).
 * Returns why the rewrite fails, or null when it passes.
 */
export function verifyRewrite(output: string, filePath: string, options: FindSitesOptions, remaining: number): string | null {
  return verifyRewriteWith(createNoEarlyStreamClose, output, filePath, options, remaining);
}
