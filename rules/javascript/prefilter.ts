export const DEFAULT_CLOSE_METHODS: readonly string[] = ['cancel', 'abort', 'aclose', 'destroy', 'return', 'terminate'];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A text test that a file may contain a close: a call of a close method after `.` (spaces allowed,
 * no line break: a sentence-ending `.` in a comment followed by a `return` statement is no
 * candidate; `_b = it.return` in a downleveled loop's `finally` is not a call), a quoted computed
 * key, `for await`, or downleveled async iteration. Files that fail it cannot produce a report (a
 * member name on the line after its `.`, or a call on the line after the name, is not looked for).
 */
export function closeCandidatePattern(closeMethods: readonly string[] = DEFAULT_CLOSE_METHODS): RegExp {
  return new RegExp(`${explicitCloseSource(closeMethods)}|for\\s+await\\b|__asyncValues`);
}

/** The part of the candidate test that is evidence of an explicit close (not of `for await` or its downleveled form). */
export function explicitCloseEvidence(closeMethods: readonly string[] = DEFAULT_CLOSE_METHODS): RegExp {
  return new RegExp(explicitCloseSource(closeMethods));
}

function explicitCloseSource(closeMethods: readonly string[]): string {
  const names = closeMethods.map(escape).join('|');
  return `\\.[ \\t]*(?:${names})[ \\t]*(?:\\?\\.[ \\t]*)?\\(|\\[\\s*['"\`](?:${names})['"\`]\\s*\\]`;
}

/**
 * Where the candidate test matches in `text` (ascending offsets), using a global copy of `pattern`.
 * Empty when the file cannot produce a report.
 */
export function candidateOffsets(text: string, pattern: RegExp): number[] {
  const offsets: number[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) offsets.push(match.index);
  return offsets;
}

/** Whether some offset lies in [start, end): a function without one holds no close and no `for await`. */
export function hasOffsetWithin(offsets: readonly number[], start: number, end: number): boolean {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (offsets[middle] < start) low = middle + 1;
    else high = middle;
  }
  return low < offsets.length && offsets[low] < end;
}
