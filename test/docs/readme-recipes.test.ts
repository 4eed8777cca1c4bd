import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Code blocks preceded by `<!-- recipe-test: name -->`, by name. */
function recipeBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of markdown.matchAll(/<!-- recipe-test: ([\w-]+) -->\r?\n```[^\n]*\n([\s\S]*?)```/g)) {
    blocks.set(match[1], match[2]);
  }
  return blocks;
}

const tested = new Map<string, string>();
for (const file of readdirSync(join(root, 'docs/recipes'))) {
  for (const [name, block] of recipeBlocks(readFileSync(join(root, 'docs/recipes', file), 'utf8'))) tested.set(name, block);
}
const readme = recipeBlocks(readFileSync(join(root, 'README.md'), 'utf8'));

describe("the README's recipes are the ones the packaging tests run", () => {
  it('shows at least the flat config, the CI workflow, the fork fix, jscodeshift and lint-staged', () => {
    expect([...readme.keys()].sort()).toEqual(
      expect.arrayContaining(['eslint-ts', 'eslint-js', 'oxlint-config', 'github-actions-workflow', 'fork-fix', 'jscodeshift', 'husky-pre-commit', 'lint-staged-config']),
    );
  });

  it.each([...readme.keys()])('%s is identical to docs/recipes', (name) => {
    expect(tested.has(name), `docs/recipes has no block named ${name}`).toBe(true);
    expect(readme.get(name)).toBe(tested.get(name));
  });
});
