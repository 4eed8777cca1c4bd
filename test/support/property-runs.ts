/**
 * How many programs a property test generates. `npm test` checks a quarter of them (the first ones of the same
 * seed), to stay under a minute; `npm run test:integration` runs every property again with all of them
 * (test/integration/property/full-runs.test.ts sets DRAINGUARD_PROPERTY_RUNS=full).
 */
export function propertyRuns(full: number): number {
  return process.env.DRAINGUARD_PROPERTY_RUNS === 'full' ? full : Math.max(1, Math.ceil(full / 4));
}
