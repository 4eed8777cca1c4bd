import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Node, Parser, Tree } from 'web-tree-sitter';

export type { Node, Tree };

let loading: Promise<Parser> | undefined;

/**
 * The grammar's .wasm: dist/tree-sitter-python/ of this package (scripts/build.mjs copies it there from the
 * tree-sitter-python package, a dev dependency), or that package's own copy where dist/ is not built.
 */
function grammarPath(): string {
  const require = createRequire(import.meta.url);
  const shipped = path.join(path.dirname(require.resolve('drainguard/package.json')), 'dist/tree-sitter-python/tree-sitter-python.wasm');
  return existsSync(shipped) ? shipped : require.resolve('tree-sitter-python/tree-sitter-python.wasm');
}

/**
 * The tree-sitter Python parser, loaded once. Both .wasm files are files of the package at run time
 * (web-tree-sitter finds its own next to its module; the grammar is in dist/, see grammarPath), so the
 * esbuild bundles need no copy of either.
 */
export function pythonParser(): Promise<Parser> {
  loading ??= (async () => {
    // Loaded on the first Python file that passes the pre-filter: a run over JavaScript alone never pays for it.
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const language = await Language.load(grammarPath());
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
