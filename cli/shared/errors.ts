/** The `code` of a Node error (`ENOENT`, `EADDRINUSE`), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
