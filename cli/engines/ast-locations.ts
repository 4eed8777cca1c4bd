import type { TSESTree } from '@typescript-eslint/utils';
import { lineStartsOf, positionAt } from '../shared/line-starts.js';

/** What oxc-parser gives a node or comment: UTF-16 offsets (and, for nodes, `range`, asked for), but no line/column `loc`. */
interface Spanned {
  type: string;
  start: number;
  end: number;
  range?: [number, number];
  loc?: TSESTree.SourceLocation;
}

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
 * Gives an oxc-parser program what ESLint requires of an AST and oxc does not produce: `range` and `loc` on the
 * Program and on `comments`, and a `tokens` array. Other nodes keep the `range` oxc-parser gives them (asked for) and
 * get no `loc`: ESLint reads a node's `loc` only for a report that names no `loc` of its own (drainguard's rule names
 * one, from the range) and to name the line of a rule that throws (the CLI then lints the file the usual way); working
 * out a line and column for every node was a cost a short lint felt. The tokens are left empty: ESLint
 * itself needs none to lint, and neither does drainguard's rule (it reads no token); only rules that ask for tokens would.
 */
export function addLocations(program: unknown, comments: Spanned[], text: string): TSESTree.Program {
  if (!isSpanned(program) || !isProgram(program) || !areComments(comments)) throw new TypeError('oxc-parser returned no Program or odd comments');
  const lineStarts = lineStartsOf(text);
  const locate = (node: Spanned): void => {
    node.range = [node.start, node.end];
    node.loc = { start: positionAt(lineStarts, node.start), end: positionAt(lineStarts, node.end) };
  };
  locate(program);
  for (const comment of comments) locate(comment);
  program.comments = comments;
  program.tokens = [];
  return program;
}
