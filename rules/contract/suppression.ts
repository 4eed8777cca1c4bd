/** `# drainguard-disable-next-line` on the line before a site, or `# drainguard-disable-line` at the end of its line. */
const DISABLE_NEXT_LINE = /^\s*#\s*drainguard-disable-next-line\b/;
const DISABLE_LINE = /#\s*drainguard-disable-line\b/;

/** Whether a disable comment silences the site on (1-based) `line` of a text split into `lines`. */
export function isSuppressed(lines: readonly string[], line: number): boolean {
  return DISABLE_NEXT_LINE.test(lines[line - 2] ?? '') || DISABLE_LINE.test(lines[line - 1] ?? '');
}
