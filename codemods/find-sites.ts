import type { StreamSite } from '../rules/javascript/site.js';
import { findSitesWith, type FindSitesOptions, type FoundSites } from '../rules/lint-sites.js';
import { createNoEarlyStreamClose } from '../rules/no-early-stream-close.js';

export type { FindSitesOptions, FoundSites };
export type FoundSite = StreamSite;

/** Runs the rule over the text (the single detection) and keeps the AST node of every site it reports. */
export function findSites(text: string, filePath: string, options: FindSitesOptions = {}): FoundSites {
  return findSitesWith(createNoEarlyStreamClose, text, filePath, options);
}
