import type { TestMeaning } from './conditions.js';
import type { Node } from './parser.js';
import { isStopIteration, named } from './tree.js';

const NO_HANDLERS: ReadonlySet<number> = new Set();

/**
 * Whether a site lies on an exempt path of the function `body`: an except block, a branch that raises or whose test
 * is about errors, a not-finished guard. `meaning` is what the function's graph makes of a test; `terminalHandlers`
 * are `except StopIteration:` clauses entered at a terminal event (build.ts), which are not error paths.
 */
export function isExemptPath(site: Node, body: Node, meaning: (test: Node) => TestMeaning, terminalHandlers: ReadonlySet<number> = NO_HANDLERS): boolean {
  let child = site;
  let branchBoundary = false;
  for (let node = site.parent; node && node.id !== body.id; child = node, node = node.parent) {
    switch (node.type) {
      case 'except_clause':
      case 'except_group_clause':
        // `except StopIteration:` around a parser that raises it at `[DONE]` is the terminal event's path, not an error's.
        if (terminalHandlers.has(node.id)) {
          branchBoundary = true;
          break;
        }
        return true;
      case 'block':
        if (!branchBoundary) {
          const last = named(node).at(-1);
          if (last?.type === 'raise_statement' && !isStopIteration(last)) return true;
        }
        break;
      case 'if_statement':
      case 'elif_clause': {
        if (child.type === 'block' && node.childForFieldName('consequence')?.id === child.id) {
          const test = node.childForFieldName('condition');
          if (test && exemptWhenTrue(meaning(test))) return true;
        }
        branchBoundary = true;
        break;
      }
      case 'else_clause':
        if (node.parent?.type === 'if_statement') {
          const test = node.parent.childForFieldName('condition');
          if (test && meaning(test).exemptFalse) return true;
        }
        branchBoundary = true;
        break;
      case 'while_statement':
      case 'case_clause':
        branchBoundary = true;
        break;
      default:
        break;
    }
  }
  return false;
}

/** `if not done:` is the not-finished guard of a close: the stream has not finished on that side. */
function exemptWhenTrue(meaning: TestMeaning): boolean {
  return meaning.exemptTrue || meaning.negTerminal !== null;
}
