import type { FrontEnd } from './front-end.js';
import { prefilterFor } from './javascript-prefilter.js';

/**
 * JavaScript and TypeScript: the ESLint rule (rules/), run by `lint` through the engines; `fix` rewrites with
 * codemods/rewrite.ts, whose rewrites import a helper module the rewritten files share.
 */
export const JAVASCRIPT: FrontEnd = {
  name: 'JavaScript and TypeScript',
  extensions: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'],
  prefilter: (ruleOptions) => prefilterFor(ruleOptions?.closeMethods),
  lint: { kind: 'eslint-rule' },
  fix: {
    rewrite: async (source, filePath, { bounds, ruleOptions, types, helperModule, styleSettings }) => {
      const styled = await styleSettings();
      const { rewrite } = await import('../../codemods/rewrite.js');
      return rewrite(source, filePath, { ...bounds, types, ruleOptions, helperModule: helperModule === undefined ? undefined : { path: helperModule }, styleSettings: styled });
    },
    helper: { kind: 'shared-module' },
  },
};
