/**
 * The known word a mistyped one most likely meant: the nearest by edit distance (a swap of two neighbouring
 * letters counts as one edit, so `fromat` is one edit from `format`), if it is near enough to be a typo —
 * at most a third of the word's length, and at least one edit — or else the only known word it begins.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3)) + 1;
  for (const word of known) {
    const distance = editDistance(typed, word);
    if (distance < bestDistance) {
      best = word;
      bestDistance = distance;
    }
  }
  if (best) return best;
  const extended = known.filter((word) => word.startsWith(typed));
  return typed.replace(/^-+/, '').length >= 3 && extended.length === 1 ? extended[0] : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
