/**
 * Every example block of the rule's docs page is linted with the rule: a block whose info string is
 * `ts ❌` / `js ❌` must be reported at least once, `ts ✅` / `js ✅` never. An optional JSON object
 * after the mark gives the rule options (`js ❌ {"terminalPatterns": ["^eos$"]}`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import rule from '../../rules/no-early-stream-close.js';
import { asESLintRule } from '../../rules/eslint-types.js';

const docsPath = fileURLToPath(new URL('../../docs/rules/no-early-stream-close.md', import.meta.url));

export interface ExampleBlock {
  language: 'ts' | 'js';
  mark: '❌' | '✅';
  options: Record<string, unknown> | undefined;
  code: string;
  /** 1-based line of the opening fence in the markdown. */
  line: number;
}

/** Fenced blocks (``` or ~~~, possibly indented inside a list item) whose info string carries ❌ or ✅. */
export function extractExamples(markdown: string): ExampleBlock[] {
  const lines = markdown.split('\n');
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S+)?\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, language = '', rest = ''] = open;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end])) end++;
    const markMatch = /^(❌|✅)\s*(\{.*\})?\s*$/u.exec(rest.trim());
    const hasMark = /[❌✅]/u.test(rest);
    if (hasMark && !markMatch) throw new Error(`docs line ${i + 1}: unreadable example info string ${JSON.stringify(lines[i])}`);
    if (markMatch) {
      if (language !== 'ts' && language !== 'js') throw new Error(`docs line ${i + 1}: example language must be ts or js, got ${language}`);
      const body = lines.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
      blocks.push({
        language,
        mark: markMatch[1] as '❌' | '✅',
        options: markMatch[2] ? (JSON.parse(markMatch[2]) as Record<string, unknown>) : undefined,
        code: body.join('\n'),
        line: i + 1,
      });
    }
    i = end;
  }
  return blocks;
}

export function lintExample(block: ExampleBlock): Linter.LintMessage[] {
  const linter = new Linter();
  return linter.verify(
    block.code,
    [
      {
        files: ['**/*.ts', '**/*.js'],
        plugins: { drainguard: { rules: { 'no-early-stream-close': asESLintRule(rule) } } },
        rules: { 'drainguard/no-early-stream-close': block.options ? ['error', block.options] : 'error' },
        languageOptions: block.language === 'ts' ? { parser: tsParser, sourceType: 'module' } : { ecmaVersion: 'latest', sourceType: 'module' },
      },
    ],
    { filename: `example.${block.language}` },
  );
}

const markdown = readFileSync(docsPath, 'utf8');
const examples = extractExamples(markdown);

describe('docs/rules/no-early-stream-close.md', () => {
  it('has examples on both sides, in both languages', () => {
    expect(examples.filter((block) => block.mark === '❌').length).toBeGreaterThanOrEqual(5);
    expect(examples.filter((block) => block.mark === '✅').length).toBeGreaterThanOrEqual(5);
    expect(new Set(examples.map((block) => `${block.language} ${block.mark}`))).toEqual(new Set(['ts ❌', 'ts ✅', 'js ❌', 'js ✅']));
  });

  it('documents every option with its default', () => {
    for (const option of ['terminalPatterns', 'closeMethods', 'useTypes']) expect(markdown).toContain(`### \`${option}\``);
    const { closeMethods = [], terminalPatterns = [] } = rule.meta.defaultOptions?.[0] ?? {};
    expect(closeMethods.length).toBeGreaterThan(0);
    expect(terminalPatterns.length).toBeGreaterThan(0);
    for (const method of closeMethods) expect(markdown).toContain(`'${method}'`);
    for (const pattern of terminalPatterns) expect(markdown).toContain(JSON.stringify(pattern).slice(1, -1).replace(/"/g, '\\"'));
  });

  it("is the page the rule's docs URL points at", () => {
    expect(rule.meta.docs?.url).toBe('https://github.com/drainguard/drainguard/blob/main/docs/rules/no-early-stream-close.md');
  });

  for (const block of examples) {
    it(`line ${block.line}: ${block.language} ${block.mark}${block.options ? ` ${JSON.stringify(block.options)}` : ''}`, () => {
      const messages = lintExample(block);
      const fatal = messages.filter((message) => message.fatal);
      expect(fatal, 'the example must parse').toEqual([]);
      const reports = messages.filter((message) => message.ruleId === 'drainguard/no-early-stream-close');
      if (block.mark === '❌') expect(reports.length, 'a ❌ example must be reported').toBeGreaterThanOrEqual(1);
      else expect(reports, 'a ✅ example must not be reported').toEqual([]);
    });
  }
});

describe('the docs test itself', () => {
  it('fails a mislabeled block: a ❌ example relabeled ✅ is reported, and the reverse', () => {
    const bad = examples.find((block) => block.mark === '❌')!;
    const good = examples.find((block) => block.mark === '✅' && !block.options)!;
    expect(lintExample({ ...bad, mark: '✅' }).filter((m) => m.ruleId).length).toBeGreaterThan(0);
    expect(lintExample({ ...good, mark: '❌' }).filter((m) => m.ruleId)).toEqual([]);
  });

  it('reads info strings with options, indented blocks and ignores unmarked blocks', () => {
    const parsed = extractExamples(
      ['```ts', 'const a = 1;', '```', '', '- item', '', '  ```js ✅ {"useTypes": true}', '  const b = 2;', '  ```', '', '~~~ts ❌', 'x.cancel();', '~~~'].join('\n'),
    );
    expect(parsed).toEqual([
      { language: 'js', mark: '✅', options: { useTypes: true }, code: 'const b = 2;', line: 7 },
      { language: 'ts', mark: '❌', options: undefined, code: 'x.cancel();', line: 11 },
    ]);
  });
});
