import { parseOnly } from './eslint-configs.mjs';
export default parseOnly;
