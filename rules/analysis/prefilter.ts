export const DEFAULT_CLOSE_METHODS: readonly string[] = ['cancel', 'abort', 'aclose', 'destroy', 'return', 'terminate'];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A text test that a file may contain a close: a call of a close method, `for await`,
 * or downleveled async iteration. Files that fail it cannot produce a report.
 */
export function closeCandidatePattern(closeMethods: readonly string[] = DEFAULT_CLOSE_METHODS): RegExp {
  const names = closeMethods.map(escape).join('|');
  return new RegExp(`\\.\\s*(?:${names})\\b|\\[\\s*['"\`](?:${names})['"\`]\\s*\\]|for\\s+await\\b|__asyncValues`);
}
