// rules/fix/suggest.ts: the rule's suggestions are offered only where their rewrite parses, and the parse reads the
// file's skeleton with the rewrite in it (the unrelated function's body cut), not the whole file.
import { describe, expect, it } from 'vitest';
import { findSites } from '../../../codemods/find-sites.js';
import { suggestedEdits } from '../../../rules/fix/suggest.js';

const code = `export function unrelated(items) {
  return items.map((item) => item * 2).filter(Boolean);
}

export async function read(url) {
  const reader = (await fetch(url)).body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.includes('[DONE]')) {
      await reader.cancel();
      return;
    }
  }
}
`;

function suggest(parses: (text: string) => boolean) {
  const { sites, sourceCode } = findSites(code, '/nowhere/read.js');
  return suggestedEdits(sites, sourceCode, { filename: '/nowhere/read.js', parses });
}

const checkedEnd = `
/** Reads a body to its end after the terminal event: its socket is reused. */
function drainReader(reader, close) {
  return drainChunks(
    () => reader.read(),
    () => close(reader),
    DRAIN_LIMITS.timeoutMs,
  );
}

export function unrelated(items) {}

export async function read(url) {
  const reader = (await fetch(url)).body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.includes('[DONE]')) {
      void drainReader(reader, () => reader.cancel());
      return;
    }
  }
}
`;

describe('suggestedEdits', () => {
  it('parses the skeleton with the rewrite in it once (the unrelated body cut), and offers the rewrite', () => {
    const checked: string[] = [];
    const suggestions = suggest((text) => (checked.push(text), true));
    expect(checked).toHaveLength(1);
    expect(checked[0].startsWith('// Past these limits a drain gives up and closes as the code did (0: no limit).\nconst DRAIN_LIMITS = { timeoutMs: 1000, maxBytes: 128 * 1024 };\n')).toBe(true);
    expect(checked[0].endsWith(checkedEnd)).toBe(true);
    const [rewrite] = [...suggestions.values()];
    expect(code.slice(0, rewrite.edit.start) + rewrite.edit.text + code.slice(rewrite.edit.end)).toContain(`    if (value.includes('[DONE]')) {
      void drainReader(reader, () => reader.cancel());
      return;
    }`);
  });

  it('offers nothing where the rewrite does not parse (one plan: checked once, not again alone)', () => {
    const checked: string[] = [];
    expect(suggest((text) => (checked.push(text), false)).size).toBe(0);
    expect(checked).toHaveLength(1);
  });

  it('checks each of several rewrites alone where all together do not parse, and offers those that do', () => {
    const twice = `${code}
export async function again(url) {
  const reader = (await fetch(url)).body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.includes('[DONE]')) {
      await reader.cancel();
      return;
    }
  }
}
`;
    const { sites, sourceCode } = findSites(twice, '/nowhere/twice.js');
    const checked: string[] = [];
    // Together: fails; the first alone: fails; the second alone: parses.
    const suggestions = suggestedEdits(sites, sourceCode, { filename: '/nowhere/twice.js', parses: (text) => (checked.push(text), checked.length === 3) });
    expect(checked).toHaveLength(3);
    // The second function's close (line 23) only.
    expect([...suggestions.keys()].map((node) => node.loc.start.line)).toEqual([23]);
  });

  describe('where the parse check judges top-level statements apart (statementsApart)', () => {
    const typed = `export async function read(url: string): Promise<void> {
  const reader = (await fetch(url)).body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.includes('[DONE]')) {
      await reader.cancel();
      return;
    }
  }
}
`;
    const rewritten = `export async function read(url: string): Promise<void> {
  const reader = (await fetch(url)).body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value.includes('[DONE]')) {
      void drainReader(reader, () => reader.cancel());
      return;
    }
  }
}
`;
    const copyEnd = `function drainReader<
  R extends { read: () => Promise<{ done?: boolean; value?: unknown }> },
>(reader: R, close: (reader: R) => unknown): Promise<void> {
  return drainChunks(
    () => reader.read(),
    () => close(reader),
    DRAIN_LIMITS.timeoutMs,
  );
}`;
    const suggestTyped = (statementsApart: string, parses: (text: string) => boolean) => {
      const { sites, sourceCode } = findSites(typed, '/nowhere/read.ts');
      return suggestedEdits(sites, sourceCode, { filename: '/nowhere/read.ts', parses, statementsApart });
    };

    it('checks the copy of the helpers on its own once, then each file without it', () => {
      const checked: string[] = [];
      expect(suggestTyped('apart-once', (text) => (checked.push(text), true)).size).toBe(1);
      expect(suggestTyped('apart-once', (text) => (checked.push(text), true)).size).toBe(1);
      expect(checked).toHaveLength(3);
      expect(checked[0].startsWith('// Past these limits a drain gives up and closes as the code did (0: no limit).\nconst DRAIN_LIMITS = { timeoutMs: 1000, maxBytes: 128 * 1024 };\n')).toBe(true);
      expect(checked[0].endsWith(copyEnd)).toBe(true);
      expect(checked[1]).toBe(rewritten);
      expect(checked[2]).toBe(rewritten);
    });

    it('checks the copy in place where it does not parse on its own, and offers nothing where the whole does not', () => {
      const checked: string[] = [];
      expect(suggestTyped('apart-fails', (text) => (checked.push(text), false)).size).toBe(0);
      expect(checked).toHaveLength(2);
      expect(checked[1].endsWith(`${copyEnd}\n\n${rewritten}`)).toBe(true);
    });
  });
});
