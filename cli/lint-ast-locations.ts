import type { TSESTree } from '@typescript-eslint/utils';

/** What oxc-parser gives a node or comment: UTF-16 offsets (and `range`, asked for), but no line/column `loc`. */
interface Spanned {
  type: string;
  start: number;
  end: number;
  range?: [number, number];
  loc?: TSESTree.SourceLocation;
}

/** Line breaks as ESLint, espree and TypeScript count them. */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;

function isSpanned(value: unknown): value is Spanned {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string' && 'start' in value && typeof value.start === 'number';
}

function isProgram(node: Spanned): node is Spanned & TSESTree.Program {
  return node.type === 'Program' && 'body' in node && Array.isArray(node.body);
}

function areComments(list: Spanned[]): list is (Spanned & TSESTree.Comment)[] {
  return list.every((comment) => (comment.type === 'Line' || comment.type === 'Block') && 'value' in comment && typeof comment.value === 'string');
}

/**
 * Gives an oxc-parser program what ESLint requires of an AST and oxc does not produce: `range` and `loc` on
 * every node (the nodes reached through `visitorKeys`, oxc-parser's own), `comments` with theirs, and a
 * `tokens` array. The tokens are left empty: ESLint itself needs none to lint, and neither does drainguard's
 * rule (it reads no token); only rules that ask for tokens would.
 */
export function addLocations(program: unknown, comments: Spanned[], text: string, visitorKeys: Readonly<Record<string, readonly string[]>>): TSESTree.Program {
  if (!isSpanned(program) || !isProgram(program) || !areComments(comments)) throw new TypeError('oxc-parser returned no Program or odd comments');
  const lineStarts = [0];
  for (const match of text.matchAll(LINE_BREAK)) lineStarts.push(match.index + match[0].length);
  // Nodes come in source order, so the line of the last lookup is the first guess.
  let line = 0;
  const position = (offset: number): TSESTree.Position => {
    if (offset < lineStarts[line] || (line + 1 < lineStarts.length && offset >= lineStarts[line + 1])) {
      let low = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if (lineStarts[middle] <= offset) low = middle;
        else high = middle - 1;
      }
      line = low;
    }
    return { line: line + 1, column: offset - lineStarts[line] };
  };
  const locate = (node: Spanned): void => {
    node.range = [node.start, node.end];
    const start = position(node.start);
    node.loc = { start, end: position(node.end) };
  };
  const visit = (node: Spanned): void => {
    locate(node);
    for (const key of visitorKeys[node.type] ?? []) {
      const value: unknown = Reflect.get(node, key);
      if (Array.isArray(value)) {
        for (const element of value) if (isSpanned(element)) visit(element);
      } else if (isSpanned(value)) {
        visit(value);
      }
    }
  };
  visit(program);
  for (const comment of comments) locate(comment);
  program.comments = comments;
  program.tokens = [];
  return program;
}
