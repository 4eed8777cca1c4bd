import { tokenizer, type Token } from 'acorn';
import { explicitCloseEvidence } from '../rules/analysis/prefilter.js';

/** The pre-filter without its `for await` alternative: evidence of an explicit close (or downleveled iteration). */
const EXPLICIT_CLOSE_EVIDENCE = explicitCloseEvidence();
const JSX_FILE = /\.[jt]sx$/i;

/**
 * For a file that passed the pre-filter only because of `for await` (no close method is written in
 * it), the only possible report is a `break`/`return`/`continue` inside a `for await` body. This
 * tokenizes the text (a tokenizer, not a parser: fast, and it skips comments and strings) and says
 * whether some `for await` body holds such a jump. Anything it cannot be sure of answers true:
 * other close evidence, JSX, a tokenizer error, a body that is not a block.
 */
export function mayHoldImplicitClose(text: string, filePath: string): boolean {
  if (EXPLICIT_CLOSE_EVIDENCE.test(text) || JSX_FILE.test(filePath)) return true;
  let tokens: Token[];
  try {
    tokens = [...tokenizer(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, allowAwaitOutsideFunction: true })];
  } catch {
    return true;
  }
  for (let index = 0; index < tokens.length; index++) {
    if (!isWord(tokens[index], 'for') || !isWord(tokens[index + 1], 'await') || tokens[index + 2]?.type.label !== '(') continue;
    const headEnd = matching(tokens, index + 2, '(', ')');
    if (headEnd < 0 || tokens[headEnd + 1]?.type.label !== '{') return true;
    const bodyEnd = matching(tokens, headEnd + 1, '{', '}');
    if (bodyEnd < 0) return true;
    for (let inner = headEnd + 2; inner < bodyEnd; inner++) {
      if (isWord(tokens[inner], 'break') || isWord(tokens[inner], 'return') || isWord(tokens[inner], 'continue')) return true;
    }
  }
  return false;
}

function isWord(token: Token | undefined, word: string): boolean {
  return token !== undefined && (token.type.keyword === word || (token.type.label === 'name' && (token as Token & { value: unknown }).value === word));
}

/** Index of the token closing the bracket opened at `open` (template `${` counts as an opening brace). */
function matching(tokens: readonly Token[], open: number, opening: string, closing: string): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    const label = tokens[index]!.type.label;
    if (label === opening || (opening === '{' && label === '${')) depth++;
    else if (label === closing && --depth === 0) return index;
  }
  return -1;
}
