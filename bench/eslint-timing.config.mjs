import { noUnreachableVersusRule, ruleVersusNoUnreachable } from './eslint-configs.mjs';
// DRAINGUARD_BENCH_ORDER=unreachable-first puts no-unreachable first in the config (see eslint-configs.mjs).
export default process.env.DRAINGUARD_BENCH_ORDER === 'unreachable-first' ? noUnreachableVersusRule : ruleVersusNoUnreachable;
