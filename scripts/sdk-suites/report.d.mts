/** One SDK's before/after record as scripts/sdk-suites.mjs builds it. */
export function formatSdkReport(record: unknown): string;
export function failedChecks(record: unknown): { name: string; code: number | null; output: string }[];
export function worseThanBefore(record: unknown): boolean;
