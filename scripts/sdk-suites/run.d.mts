export const DEFAULT_TIMEOUT_MS: number;
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string },
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; ms: number; timedOut: boolean }>;
