/**
 * The README and the pages it leads to: every relative link names a file that exists (and a heading
 * of it, for a `#fragment` into markdown), the README stays short, and no page names a path of a build
 * machine. The recipes' code blocks are run verbatim by test/integration/packaging/packed.test.ts.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}


const pages = ['README.md', 'CONTRIBUTING.md', ...markdownFiles('docs')];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const match of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)) {
    found.add(
      match[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return found;
}

/** Relative link targets outside code: `[text](target)`. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^[a-z]+:/.test(target));
}

describe('docs', () => {
  it.each(pages)('%s: every relative link resolves', (page) => {
    const text = readFileSync(path.join(ROOT, page), 'utf8');
    const broken = links(text).filter((target) => {
      const [file, fragment] = target.split('#');
      const resolved = file === '' ? path.join(ROOT, page) : path.join(ROOT, path.dirname(page), file);
      if (!existsSync(resolved)) return true;
      if (fragment === undefined || !resolved.endsWith('.md')) return false;
      return !anchors(readFileSync(resolved, 'utf8')).has(fragment);
    });
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s names no path of a build machine', (page) => {
    const text = readFileSync(path.join(ROOT, page), 'utf8');
    expect(text.match(/\/work\/|\/root\/|\/home\/\w+|this (build )?machine|search [t]ool/g)).toBeNull();
  });

  it('the README is at most 150 lines and keeps the two quick-start commands', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    expect(readme).toContain('```sh\nnpm ci && npm run demo\nnpm test\n```');
  });
});
