import { createRequire } from 'node:module';
import type { Node, Parser, Tree } from 'web-tree-sitter';

export type { Node, Tree };

let loading: Promise<Parser> | undefined;

/**
 * The tree-sitter Python parser, loaded once. Both .wasm files are resolved as package files at run
 * time (web-tree-sitter finds its own next to its module; the grammar ships in tree-sitter-python),
 * so the esbuild bundle in dist/ needs no copy of either.
 */
export function pythonParser(): Promise<Parser> {
  loading ??= (async () => {
    // Loaded on the first Python file that passes the pre-filter: a run over JavaScript alone never pays for it.
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const require = createRequire(import.meta.url);
    const language = await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return loading;
}

export async function parsePython(text: string): Promise<Tree> {
  const parser = await pythonParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}

/** The first syntax error of a tree (an ERROR or MISSING node), or null. */
export function firstSyntaxError(root: Node): Node | null {
  if (!root.hasError) return null;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) return node;
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return root;
      }
    }
  } finally {
    cursor.delete();
  }
}
