/** One SDK's before/after record as scripts/sdk-suites.mjs builds it. */
export function formatSdkReport(record: unknown): string;
