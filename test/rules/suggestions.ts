/**
 * The suggestion the rule must offer on each expected error, written literally in
 * test/rules/fixtures/suggestions/<book>.txt: one `#### <case name> @ <line>:<column>` header per error, then the whole
 * file as the suggestion leaves it, or `(no suggestion)` on the header where the site is left manual.
 *
 * The cases sit beside a helper module (test/rules/fixtures/with-helper/), so a suggestion holds its import, not the
 * helpers (their text is tested once, in test/rules/fix/helper-text.test.ts); a script, which cannot import, still
 * carries its own copy. The books are reviewed snapshots. After an intended change of the rewrite, record them again
 * with `UPDATE_SUGGESTIONS=1 npx vitest run test/rules/no-early-stream-close.test.ts` and read the diff before committing:
 * recording takes what `drainguard fix` does to that one site; checking never runs the codemod.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ExpectedError, InvalidCase } from './cases.js';

export interface ExpectedSuggestion {
  messageId: 'drainInBackground';
  data: { budget: string };
  output: string;
}

type Expected = ExpectedError & { suggestions: ExpectedSuggestion[] };
type RewriteModule = typeof import('../../codemods/rewrite.js');

const HEADER = '#### ';
const NONE = ' (no suggestion)';
const recording = process.env.UPDATE_SUGGESTIONS === '1';

function parseBook(text: string): Map<string, string | null> {
  const entries = new Map<string, string | null>();
  const lines = text.split('\n');
  lines.pop();
  let key: string | null = null;
  let body: string[] = [];
  const flush = () => {
    if (key === null) return;
    if (key.endsWith(NONE)) entries.set(key.slice(0, -NONE.length), null);
    else entries.set(key, body.join('\n'));
  };
  for (const line of lines) {
    if (line.startsWith(HEADER)) {
      flush();
      key = line.slice(HEADER.length);
      body = [];
    } else body.push(line);
  }
  flush();
  return entries;
}

export interface SuggestionBook {
  /** The expected errors of a case, each with its literal suggestion (or none). */
  expect(testCase: InvalidCase, filename: string, extra?: { types?: boolean; cwd?: string }): Expected[];
  /** Recording: writes the book. Checking: nothing. */
  close(): void;
}

export async function openBook(name: string): Promise<SuggestionBook> {
  const file = new URL(`fixtures/suggestions/${name}.txt`, import.meta.url);
  const engine: RewriteModule | null = recording ? await import('../../codemods/rewrite.js') : null;
  const book = !recording && existsSync(file) ? parseBook(readFileSync(file, 'utf8')) : new Map<string, string | null>();
  const recorded: string[] = [];

  const lookup = (testCase: InvalidCase, filename: string, extra: { types?: boolean; cwd?: string }, error: ExpectedError): string | null => {
    const key = `${testCase.name} @ ${error.line}:${error.column}`;
    if (engine) {
      const ruleOptions = { ...testCase.options?.[0] };
      delete ruleOptions.useTypes;
      // The helper module beside the file, as the rule's suggestion finds it.
      const helperModule = engine.findHelperModule(filename) ?? undefined;
      const result = engine.rewrite(testCase.code, filename, { ruleOptions, only: { line: error.line, column: error.column }, helperModule, ...extra });
      const site = result.sites.find((candidate) => candidate.line === error.line && candidate.column === error.column);
      const output = site?.status === 'fixed' && result.output !== null ? result.output : null;
      if (book.has(key)) throw new Error(`two errors recorded under one key in ${name}.txt: ${key}`);
      book.set(key, output);
      recorded.push(output === null ? `${HEADER}${key}${NONE}\n` : `${HEADER}${key}\n${output}\n`);
      return output;
    }
    if (!book.has(key)) throw new Error(`no suggestion recorded in test/rules/fixtures/suggestions/${name}.txt for ${key} (see test/rules/suggestions.ts)`);
    return book.get(key) ?? null;
  };

  return {
    expect: (testCase, filename, extra = {}) =>
      testCase.errors.map((error) => {
        const output = lookup(testCase, filename, extra, error);
        return { ...error, suggestions: output === null ? [] : [{ messageId: 'drainInBackground', data: { budget: '1000' }, output }] };
      }),
    close: () => {
      if (engine) writeFileSync(file, recorded.join(''));
    },
  };
}
