import { ruleVersusNoUnreachable } from './eslint-configs.mjs';
export default ruleVersusNoUnreachable;
