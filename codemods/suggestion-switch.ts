let paused = 0;

/**
 * Runs `run` with the rule's suggestions off: a lint that only wants the sites (`drainguard fix` finding them, and the
 * verification of a rewrite, which lints its output with the rule) neither computes nor verifies a rewrite per report.
 */
export function withoutSuggestions<T>(run: () => T): T {
  paused++;
  try {
    return run();
  } finally {
    paused--;
  }
}

export function suggestionsPaused(): boolean {
  return paused > 0;
}
