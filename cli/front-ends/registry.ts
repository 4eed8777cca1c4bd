import type { FrontEnd } from './front-end.js';
import { JAVASCRIPT } from './javascript.js';
import { PYTHON } from './python.js';

export type { FrontEnd } from './front-end.js';

/** The languages `lint` and `fix` take, each with its files, its pre-filter, how it is linted and how it is rewritten. */
export const FRONT_ENDS: readonly FrontEnd[] = [JAVASCRIPT, PYTHON];

/** Every front end's file extensions, in the registry's order: what `lint` and `fix` walk for and take. */
export const LINTABLE_EXTENSIONS: readonly string[] = FRONT_ENDS.flatMap((frontEnd) => frontEnd.extensions);

/**
 * The front end of a file, by the end of its name (case aside). A file no front end claims, which only a path named
 * on the command line that could not be looked at can be, is JavaScript's: reading it says why it cannot be checked.
 */
export function frontEndOf(filePath: string): FrontEnd {
  const name = filePath.toLowerCase();
  return FRONT_ENDS.find((frontEnd) => frontEnd.extensions.some((extension) => name.endsWith(extension))) ?? JAVASCRIPT;
}
