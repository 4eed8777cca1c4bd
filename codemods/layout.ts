/** How a file is written, so inserted code looks like its neighbours. */
export interface Layout {
  eol: string;
  unit: string;
  semi: string;
  typescript: boolean;
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export function detectLayout(text: string, typescript: boolean, semicolons: boolean): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { eol, unit: detectIndentUnit(text), semi: semicolons ? ';' : '', typescript };
}

function detectIndentUnit(text: string): string {
  let tabs = 0;
  let smallest = Infinity;
  for (const match of text.matchAll(/^([ \t]+)\S/gm)) {
    const indent = match[1];
    if (indent.startsWith('\t')) tabs++;
    else if (indent.length < smallest && indent.length >= 2) smallest = indent.length;
  }
  if (tabs > 0 && smallest === Infinity) return '\t';
  return ' '.repeat(smallest === Infinity ? 2 : Math.min(smallest, 8));
}

/** Leading whitespace of the line that holds `offset`. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** A name not used anywhere in the file: `base`, `base2`, … */
export function freshName(text: string, base: string, taken: Set<string>): string {
  for (let suffix = 1; ; suffix++) {
    const name = suffix === 1 ? base : `${base}${suffix}`;
    if (!taken.has(name) && !new RegExp(`\\b${name}\\b`).test(text)) {
      taken.add(name);
      return name;
    }
  }
}

/** Joins statement lines at `indent`, using the file's line ending. */
export function lines(layout: Layout, indent: string, body: Array<string | null>): string {
  return body
    .filter((line): line is string => line !== null)
    .map((line, index) => (index === 0 ? line : line === '' ? '' : indent + line))
    .join(layout.eol);
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

/** Adds one indentation unit to every line after the first (used when a loop is wrapped in try). */
export function indentBlock(text: string, layout: Layout): string {
  return text.replace(/(\r?\n)([ \t]*)(?=\S)/g, `$1$2${layout.unit}`);
}
