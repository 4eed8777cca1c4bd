/** One SDK's before/after record as scripts/sdk-suites.mjs builds it. */
export function formatSdkReport(record: unknown): string;
/** The same record as a section of a run's results.md (no machine paths). */
export function formatResultsSection(record: unknown): string;
export function failedChecks(record: unknown): { name: string; code: number | null; output: string }[];
export function worseThanBefore(record: unknown): boolean;
export function diagnosticCounts(output: string): { warnings: number; errors: number } | null;
export function checkGotWorse(before: { code: number | null; output: string } | undefined, after: { code: number | null; output: string }): boolean;
export function formatProveTable(before: unknown, after: unknown): string[];
