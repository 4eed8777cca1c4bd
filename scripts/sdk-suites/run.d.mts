export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; ms: number; timedOut: boolean }>;
