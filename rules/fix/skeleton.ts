import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { AST_NODE_TYPES, AST_TOKEN_TYPES, type TSESTree } from '@typescript-eslint/types';
import { innermostFunctionAt, isFunction, walk, type Node } from '../javascript/ast.js';

export type Range = readonly [start: number, end: number];

interface Cut {
  start: number;
  end: number;
  text: string;
}

export interface Skeleton {
  text: string;
  /** Where an offset of the file (outside the blanked bodies) is in the skeleton's text. */
  at(offset: number): number;
}

/**
 * The text a suggestion's parse check reads: the file cut down to what a parse of the rewrite depends on. Parsing a
 * file costs as much as ESLint's own parse of it, and a bundle of megabytes has one site. Kept whole: the functions the
 * kept ranges (sites, edits) are in (for a downleveled `async` body, the function it is written in, as the analysis takes
 * it: `innermostFunctionAt`), callbacks inside them too. Kept around them: the nodes that hold them (so `await`,
 * `yield`, labels, `super` and private names mean what they meant), directives, imports, exported declarations, and the
 * top-level declarations of a name the rewrite writes (`written`: a declaration it adds must still clash with one of the
 * same name). Cut: other top-level declarations and statements (to `;`), `export { name }` lists without a source (to
 * `;`), other functions' and classes' bodies (to `{}`, or `0` for an expression body), initializers (to `0`), and
 * comments. A bundle's thousands of top-level functions and their comments go: a 2.7 MB bundle's skeleton was 140 KB (a
 * parse of 70-150 ms) with them.
 *
 * An export list can go with the declarations it names because a rewrite adds no export and removes no declaration: the
 * errors it could raise (a name exported twice or never declared) would be the file's own, and the file parsed. Kept,
 * it kept every declaration it names: a bundle's list of two hundred names was most of its skeleton.
 */
export function skeletonOf(sourceCode: SourceCode, kept: readonly Range[], written: ReadonlySet<string>): Skeleton {
  const homes = new Set<Node>();
  for (const [start] of kept) {
    const home = innermostFunctionAt(sourceCode.ast, start, sourceCode.visitorKeys);
    if (home) homes.add(home);
  }
  const cuts: Cut[] = [];
  const cut = (node: Node, text: string): false => {
    cuts.push({ start: node.range[0], end: node.range[1], text });
    return false;
  };
  const cutInside = (node: Node): false => {
    cuts.push({ start: node.range[0] + 1, end: node.range[1] - 1, text: '' });
    return false;
  };
  walk(sourceCode.ast, sourceCode.visitorKeys, (node) => {
    if (homes.has(node)) return false;
    if (touchesAny(node.range, kept)) return true;
    if (isExportList(node) || (isTopLevelDeclaration(node) && !declaresAny(node, written, sourceCode.visitorKeys))) return cut(node, ';');
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
  cuts.sort((a, b) => a.start - b.start);
  cuts.push(...commentCuts(sourceCode.ast.comments ?? [], cuts, kept, text));
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

/**
 * Cuts of the comments outside the other cuts (`sorted`) and the kept ranges: a bundle's are most of what is left. A block
 * comment with a line break becomes one (it ends a line for automatic semicolon insertion), others go.
 */
function commentCuts(comments: readonly TSESTree.Comment[], sorted: readonly Cut[], kept: readonly Range[], text: string): Cut[] {
  const result: Cut[] = [];
  let next = 0;
  for (const comment of comments) {
    const [start, end] = comment.range;
    while (next < sorted.length && sorted[next].end <= start) next++;
    if (next < sorted.length && sorted[next].start < end) continue;
    if (touchesAny(comment.range, kept)) continue;
    result.push({ start, end, text: comment.type === AST_TOKEN_TYPES.Block && hasLineBreak(text, start, end) ? '\n' : '' });
  }
  return result;
}

/** Whether `text` has a line break in [start, end), read in place (a search from `start` would run on past `end`). */
function hasLineBreak(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

/** A declaration standing alone in a module's or namespace's statement list (not exported, not an import). */
function isTopLevelDeclaration(node: Node): boolean {
  return node.parent !== undefined && TOP_LEVEL.has(node.parent.type) && DECLARATIONS.has(node.type);
}

const DECLARATIONS = new Set<string>([
  AST_NODE_TYPES.FunctionDeclaration,
  AST_NODE_TYPES.ClassDeclaration,
  AST_NODE_TYPES.VariableDeclaration,
  AST_NODE_TYPES.TSDeclareFunction,
  AST_NODE_TYPES.TSEnumDeclaration,
  AST_NODE_TYPES.TSInterfaceDeclaration,
  AST_NODE_TYPES.TSModuleDeclaration,
  AST_NODE_TYPES.TSTypeAliasDeclaration,
]);

/**
 * Whether a top-level declaration binds one of `names`; for a destructuring pattern, whether any identifier in it is one
 * (more than it binds: kept more often, never less).
 */
function declaresAny(node: Node, names: ReadonlySet<string>, visitorKeys: SourceCode['visitorKeys']): boolean {
  if (node.type !== AST_NODE_TYPES.VariableDeclaration) return 'id' in node && node.id?.type === AST_NODE_TYPES.Identifier && names.has(node.id.name);
  for (const declarator of node.declarations) {
    const id = declarator.id;
    if (id.type === AST_NODE_TYPES.Identifier && names.has(id.name)) return true;
    // The identifiers of a type annotation count too (`declare const Stream: { rawEvents(response: Response) … }`).
    if (id.type === AST_NODE_TYPES.Identifier && !id.typeAnnotation) continue;
    let found = false;
    walk(id, visitorKeys, (inner) => {
      if (inner.type === AST_NODE_TYPES.Identifier && names.has(inner.name)) found = true;
      return !found;
    });
    if (found) return true;
  }
  return false;
}

/** `export { a, b as c }` without `from`: names declared elsewhere in the file. */
function isExportList(node: Node): boolean {
  return node.type === AST_NODE_TYPES.ExportNamedDeclaration && node.declaration === null && node.source === null;
}

function touches(node: Range, range: Range): boolean {
  return node[0] <= range[1] && range[0] <= node[1];
}

function touchesAny(node: Range, ranges: readonly Range[]): boolean {
  for (const range of ranges) if (touches(node, range)) return true;
  return false;
}
