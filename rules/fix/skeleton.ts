import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { isFunction, walk, type Node } from '../analysis/ast.js';

export type Range = readonly [start: number, end: number];

export interface Skeleton {
  text: string;
  /** Where an offset of the file (outside the blanked bodies) is in the skeleton's text. */
  at(offset: number): number;
}

/**
 * The text a suggestion's parse check reads: the file cut down to what a parse of the rewrite depends on. Parsing a
 * file costs as much as ESLint's own parse of it, and a bundle of megabytes has one site. Kept whole: the functions the
 * kept ranges (sites, edits) are in, callbacks inside them too. Kept around them: the nodes that hold them (so `await`,
 * `yield`, labels, `super` and private names mean what they meant), directives, and a module's top-level declarations
 * (an `export { name }` needs its declaration). Cut: other functions' and classes' bodies (to `{}`, or `0` for an
 * expression body), initializers (to `0`), and other statements (to `;`).
 */
export function skeletonOf(sourceCode: SourceCode, kept: readonly Range[]): Skeleton {
  const homes = new Set<Node>();
  for (const [start] of kept) {
    const home = innermostFunction(sourceCode.ast, sourceCode.visitorKeys, start);
    if (home) homes.add(home);
  }
  const cuts: Array<{ start: number; end: number; text: string }> = [];
  const cut = (node: Node, text: string): false => {
    cuts.push({ start: node.range[0], end: node.range[1], text });
    return false;
  };
  const cutInside = (node: Node): false => {
    cuts.push({ start: node.range[0] + 1, end: node.range[1] - 1, text: '' });
    return false;
  };
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (homes.has(node) || kept.some((range) => touches(node.range, range))) return !homes.has(node);
    if (node.type === AST_NODE_TYPES.ClassBody) return cutInside(node);
    if (isFunction(node)) {
      const body: Node | null | undefined = node.body;
      if (body?.type === AST_NODE_TYPES.BlockStatement) cutInside(body);
      else if (body) cut(body, '0');
      return false;
    }
    if (isCuttableStatement(node)) return cut(node, ';');
    if (node.type === AST_NODE_TYPES.VariableDeclarator && node.init) return cut(node.init, '0');
    return true;
  });
  const text = sourceCode.text;
  if (cuts.length === 0) return { text, at: (offset) => offset };
  cuts.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  // For each cut, the offset in the file it ends at and how much shorter the skeleton is from there on.
  const shifts: Array<{ end: number; shift: number }> = [];
  let from = 0;
  let shift = 0;
  for (const cut of cuts) {
    parts.push(text.slice(from, cut.start), cut.text);
    shift += cut.end - cut.start - cut.text.length;
    shifts.push({ end: cut.end, shift });
    from = cut.end;
  }
  parts.push(text.slice(from));
  return {
    text: parts.join(''),
    at(offset) {
      let low = 0;
      let high = shifts.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (shifts[middle].end <= offset) low = middle + 1;
        else high = middle;
      }
      return offset - (low === 0 ? 0 : shifts[low - 1].shift);
    },
  };
}

const STATEMENT_LISTS = new Set<string>([AST_NODE_TYPES.Program, AST_NODE_TYPES.BlockStatement, AST_NODE_TYPES.StaticBlock, AST_NODE_TYPES.SwitchCase, AST_NODE_TYPES.TSModuleBlock]);
const TOP_LEVEL = new Set<string>([AST_NODE_TYPES.Program, AST_NODE_TYPES.TSModuleBlock]);

/** A statement of a statement list that can go: not a directive, nor a declaration at the top of a module or namespace. */
function isCuttableStatement(node: Node): boolean {
  const parent = node.parent;
  if (!parent || !STATEMENT_LISTS.has(parent.type) || (parent.type === AST_NODE_TYPES.SwitchCase && parent.test === node)) return false;
  if (node.type === AST_NODE_TYPES.ExpressionStatement && node.directive !== undefined) return false;
  return !(TOP_LEVEL.has(parent.type) && !node.type.endsWith('Statement'));
}

function touches(node: Range, range: Range): boolean {
  return node[0] <= range[1] && range[0] <= node[1];
}

/** The innermost function around an offset, found down the one path of nodes that hold it (ESLint's `getNodeByRangeIndex` walks the whole tree). */
function innermostFunction(root: Node, visitorKeys: SourceCode['visitorKeys'], offset: number): Node | null {
  let found: Node | null = null;
  walk(root, visitorKeys, (node) => {
    if (offset < node.range[0] || offset >= node.range[1]) return false;
    if (isFunction(node)) found = node;
    return true;
  });
  return found;
}
