/** The robustness sweep (bench/robustness.mjs): generates the tree, lints it through each engine, checks the output. */
export function sweep(): { ok: boolean; rows: string[] };
