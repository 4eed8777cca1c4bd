// The Python analysis's unit tests parse a snippet with the real tree-sitter grammar and look nodes up by type.
import { parsePython, type Node } from '../../../rules/python/parser.js';

export const lines = (...code: string[]): string => `${code.join('\n')}\n`;

/** The nodes of `type` in source order (pre-order), from the parse of `code`. */
export async function nodesOf(code: string, type: string): Promise<Node[]> {
  const found: Node[] = [];
  const visit = (node: Node): void => {
    if (node.type === type) found.push(node);
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit((await parsePython(code)).rootNode);
  return found;
}

/** The body of the first function of `code`. */
export async function firstFunctionBody(code: string): Promise<Node> {
  const [fn] = await nodesOf(code, 'function_definition');
  const body = fn?.childForFieldName('body');
  if (!body) throw new Error('no function body');
  return body;
}
