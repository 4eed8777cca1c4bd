/** A replacement of `text.slice(start, end)`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Leading whitespace of the line that holds `offset`. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** Applies non-overlapping edits (sorted here) to `text`. */
export function applyEdits(text: string, edits: readonly Edit[], offset = 0): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let result = text;
  let previousStart = Infinity;
  for (const edit of sorted) {
    if (edit.end > previousStart) throw new Error('overlapping edits');
    result = result.slice(0, edit.start - offset) + edit.text + result.slice(edit.end - offset);
    previousStart = edit.start;
  }
  return result;
}

/**
 * The edits as one edit: the span from the first to the last, rewritten as applyEdits rewrites it. A
 * suggestion made of it is one fix, which every host (ESLint, oxlint) applies as it is, and its text
 * is the text `drainguard fix` writes.
 */
export function mergeEdits(text: string, edits: readonly Edit[]): Edit {
  const start = Math.min(...edits.map((edit) => edit.start));
  const end = Math.max(...edits.map((edit) => edit.end));
  return { start, end, text: applyEdits(text.slice(start, end), edits, start) };
}
