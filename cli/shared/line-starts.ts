/** Line breaks as ESLint, espree and TypeScript count them. */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;
const OTHER_THAN_LF = /[\r\u2028\u2029]/;

/**
 * The offset (UTF-16 units) at which each line of `text` starts, with ESLint's line breaks. Text whose only line break
 * is `\n` (almost all) is scanned with indexOf: a regex match object per line costs a large bundle dearly.
 */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  if (OTHER_THAN_LF.test(text)) {
    for (const match of text.matchAll(LINE_BREAK)) starts.push(match.index + match[0].length);
  } else {
    for (let found = text.indexOf('\n'); found !== -1; found = text.indexOf('\n', found + 1)) starts.push(found + 1);
  }
  return starts;
}

/** The 1-based line and 0-based column (ESLint's `loc` position) of `offset`, from {@link lineStartsOf}. */
export function positionAt(lineStarts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (lineStarts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low] };
}
