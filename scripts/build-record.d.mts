export const BUILD_CONFIG_FILES: string[];
export function buildRecordPath(root: string): string;
export function writeBuildRecord(root: string, inputs: Iterable<string>, outputs: Iterable<string>): void;
export function isBuildFresh(root: string): boolean;
