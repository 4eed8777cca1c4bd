/** A replacement of `text.slice(start, end)`; both front ends' rewrites are lists of these. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies edits to `text` (whose first character is at `offset` of the text the edits count in). Insertions at one
 * offset keep their list order (the one listed first ends up first); edits that overlap are an error, never a guess.
 */
export function applyEdits(text: string, edits: readonly Edit[], offset = 0): string {
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => b.edit.start - a.edit.start || b.edit.end - a.edit.end || b.index - a.index);
  let result = text;
  let previousStart = Infinity;
  for (const { edit } of ordered) {
    if (edit.end > previousStart) throw new Error(`overlapping edits at ${edit.start}-${edit.end} and ${previousStart}`);
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
