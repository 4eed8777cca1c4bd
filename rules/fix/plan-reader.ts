import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { calleeName, isLoop, unwrap, walk, type Node } from '../javascript/ast.js';
import type { Family } from '../core/effect.js';
import { jumpTarget } from '../javascript/jumps.js';
import type { StreamResolver } from '../javascript/streams.js';
import { enclosingFunction, inScopeAt, nextStatement, variableAt } from './plan-scope.js';

// How the code around a close uses the reader it closes: whether anything reads it after the close (so a drain
// may run in the background), and which reader of the response is in hand at all.

/** Where the reader is read around the close: the loops (in its function) that read it, and what follows the close. */
interface ReadsAround {
  fn: Node | null;
  readPattern: RegExp;
  /** Innermost first. */
  readingLoops: Node[];
  /** The first statement after the close that reads the reader or is not an expression statement (`downstream.close();` is skipped). */
  next: Node | null;
}

function readsAround(statement: Node, name: string, sourceCode: SourceCode): ReadsAround {
  const readPattern = new RegExp(`\\b${name}\\s*\\.\\s*read\\b`);
  const fn = enclosingFunction(statement);
  const readingLoops: Node[] = [];
  for (let current = statement.parent; current && current !== fn; current = current.parent) {
    if (isLoop(current) && readPattern.test(sourceCode.getText(current))) readingLoops.push(current);
  }
  let next = nextStatement(statement);
  while (next && next.type === AST_NODE_TYPES.ExpressionStatement && !readPattern.test(sourceCode.getText(next))) next = nextStatement(next);
  return { fn, readPattern, readingLoops, next };
}

/**
 * Whether nothing can read the reader again after the close statement, so a background drain cannot race the code:
 * the statement after the close leaves every loop that reads it (return, throw, break out of it), or no loop reading it
 * encloses the close and no read or releaseLock of it follows. A reader kept in a field may be read by other methods.
 */
export function nothingReadsAfter(statement: Node, reader: Node, sourceCode: SourceCode): boolean {
  const target = unwrap(reader);
  if (target?.type !== AST_NODE_TYPES.Identifier) return false;
  const name = target.name;
  // `const reader = this.reader`: other methods read the same reader.
  const definition = variableAt(name, reader, sourceCode)?.defs[0]?.node;
  if (definition?.type === AST_NODE_TYPES.VariableDeclarator && definition.init && /\bthis\b/.test(sourceCode.getText(definition.init))) return false;
  const { fn, readPattern, readingLoops, next } = readsAround(statement, name, sourceCode);
  const fnText = fn ? sourceCode.getText(fn) : sourceCode.text;
  if (new RegExp(`\\b${name}\\s*\\.\\s*releaseLock\\b`).test(fnText)) return false;
  if (next?.type === AST_NODE_TYPES.ReturnStatement || next?.type === AST_NODE_TYPES.ThrowStatement) return !readPattern.test(sourceCode.getText(next));
  if (next?.type === AST_NODE_TYPES.BreakStatement && readingLoops.length > 0) {
    const target = jumpTarget(next);
    if (target && target === readingLoops[readingLoops.length - 1]) return afterIsFree(target, readPattern, fn, sourceCode);
    if (target && readingLoops.includes(target)) return afterIsFree(readingLoops[readingLoops.length - 1], readPattern, fn, sourceCode);
  }
  if (readingLoops.length > 0) return false;
  return afterIsFree(statement, readPattern, fn, sourceCode);
}

/** The close is inside a loop that reads the reader, and does not leave it right after: the loop's next read() follows. */
export function readsOnInLoop(statement: Node, reader: Node, sourceCode: SourceCode): boolean {
  const target = unwrap(reader);
  if (target?.type !== AST_NODE_TYPES.Identifier) return false;
  const { readingLoops, next } = readsAround(statement, target.name, sourceCode);
  if (readingLoops.length === 0) return false;
  if (next?.type === AST_NODE_TYPES.ReturnStatement || next?.type === AST_NODE_TYPES.ThrowStatement) return false;
  // `break` out of the innermost loop that reads (or out of one around it) leaves before the next read.
  const left = next?.type === AST_NODE_TYPES.BreakStatement ? jumpTarget(next) : null;
  return !(left && readingLoops.includes(left));
}

function afterIsFree(node: Node, readPattern: RegExp, fn: Node | null, sourceCode: SourceCode): boolean {
  const fnEnd = fn ? fn.range[1] : sourceCode.text.length;
  return !readPattern.test(sourceCode.text.slice(node.range[1], fnEnd));
}

export interface ReaderInHand {
  text: string;
  node: Node;
  method: 'read' | 'next';
}

/** A reader or iterator of the same response that this function reads with `.read()`/`.next()` and that is in scope at the close. */
export function findReaderInHand(close: Node, receiver: Node, family: Family, fn: Node, streams: StreamResolver, sourceCode: SourceCode): ReaderInHand | null {
  const strip = (text: string): string => text.replace(/[!?]+$/, '');
  const receiverText = strip(sourceCode.getText(receiver));
  const searchRoot = unwrap(receiver)?.type === AST_NODE_TYPES.MemberExpression ? enclosingClassOrSelf(fn) : fn;
  const readers: ReaderInHand[] = [];
  walk(searchRoot, sourceCode.visitorKeys, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length > 0) return;
    const callee = unwrap(node.callee);
    if (callee?.type !== AST_NODE_TYPES.MemberExpression) return;
    const method = calleeName(callee);
    if (method !== 'read' && method !== 'next') return;
    const object = callee.object;
    const objectText = sourceCode.getText(object);
    if (strip(objectText) !== receiverText && streams.familyOf(object) !== family) return;
    if (inScopeAt(object, close, sourceCode)) readers.push({ text: objectText, node: object, method });
  });
  // The receiver itself where it is read; else the last reader of the response found.
  const own = readers.find((reader) => strip(reader.text) === receiverText);
  // Drain the receiver as written at the close (`this.reader!`), so its narrowing and assertions stay where they were.
  if (own) return { ...own, text: sourceCode.getText(receiver) };
  return readers.at(-1) ?? null;
}

function enclosingClassOrSelf(fn: Node): Node {
  for (let current = fn.parent; current; current = current.parent) if (current.type === AST_NODE_TYPES.ClassBody) return current;
  return fn;
}
