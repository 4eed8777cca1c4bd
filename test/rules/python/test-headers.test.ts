// The Python pre-filter's second question (rules/python/test-headers.ts): the lines a test can stand on, found without a
// parse, and whether one of them names a terminal event. Checked on chosen cases against tree-sitter, on generated text
// and tokens, and on Debian's standard library where it is installed.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayReportPython } from '../../../rules/python/analyze.js';
import { pythonAnalysisOptions } from '../../../rules/python/options.js';
import { parsePython, type Node } from '../../../rules/python/parser.js';
import { named } from '../../../rules/python/tree.js';
import { coversDefaultPatterns, mayRecogniseTerminal, terminalTextFor, testHeaders } from '../../../rules/python/test-headers.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns, matchesTerminal } from '../../../rules/contract/vocabulary.js';
import { propertyRuns } from '../../support/property-runs.js';

const lines = (...code: string[]) => `${code.join('\n')}\n`;
const headerTexts = (text: string) => testHeaders(text)?.map(([start, end]) => text.slice(start, end)) ?? null;
const TERMINAL_TEXT = terminalTextFor(undefined);

/** Every test tree-sitter finds (an `if`, `elif` or `while` condition, a `case` pattern or guard) lies in a header the scan found. */
async function expectTestsInHeaders(text: string): Promise<void> {
  const headers = testHeaders(text);
  expect(headers).not.toBeNull();
  const tree = await parsePython(text);
  try {
    expect(tree.rootNode.hasError).toBe(false);
    const tests: Node[] = [];
    for (const node of tree.rootNode.descendantsOfType(['if_statement', 'elif_clause', 'while_statement', 'case_clause'])) {
      if (!node) continue;
      const condition = node.childForFieldName('condition');
      if (node.type === 'case_clause') tests.push(...named(node).filter((child) => child.type !== 'block'));
      else if (condition) tests.push(condition);
    }
    expect(tests.length).toBeGreaterThan(0);
    for (const test of tests) {
      const within = headers!.some(([start, end]) => start <= test.startIndex && test.endIndex <= end);
      expect(within, `the test ${JSON.stringify(test.text)} lies in a header`).toBe(true);
    }
  } finally {
    tree.delete();
  }
}

describe('the logical lines that start with a test (testHeaders)', () => {
  it('lists each if, elif, while and case line whole, brackets and continuations included, and nothing in strings or comments', () => {
    const text = lines(
      'def f(response):',
      '    """if done: this docstring is no test',
      '    while it says so"""',
      '    # if stop: nor is a comment',
      '    x = "if end"  # if finished',
      '    if (a and',
      '            b == "[DONE]"):  # (a comment',
      '        return',
      '    elif c and \\',
      '            d:',
      '        pass',
      '    while not done: x = {1: "}"}',
      '    match event:',
      '        case {"type": "message_stop"} if ready:',
      '            pass',
      '    iffy = cases = 1',
    );
    expect(headerTexts(text)).toEqual([
      '    if (a and\n            b == "[DONE]"):  # (a comment\n'.trimStart(),
      'elif c and \\\n            d:\n',
      'while not done: x = {1: "}"}\n',
      'case {"type": "message_stop"} if ready:\n',
    ]);
  });

  it('reads strings as Python does: prefixes, triple quotes, escapes, f-string fields with nested quotes, format specs', async () => {
    await expectTestsInHeaders(
      lines(
        'x = rb"\\"" ; y = Rb\'\\\'\' ; z = u"if"',
        's = f"{a["k"]!r:>{width}} {{literal}} {b:\'^10} {c:#x} {d:=10}"',
        't = f"""{',
        '    e  # a comment in a field',
        '}"""',
        'u = f"\\N{BULLET} {x}" + rf"\\{y}"',
        'v = """a "quoted" line',
        'if this: were code"""',
        'if s == "[DONE]" or t.endswith(\'"\'):',
        '    pass',
        'elif f"{s!r}" == "a:b":',
        '    pass',
        'while (n := len(s)) > 3: n -= 1',
      ),
    );
    expect(headerTexts(lines('v = """a', 'if done:', '"""', 'w = 1'))).toEqual([]);
    expect(headerTexts(lines('s = f"{a["if"]}"', 'if done:', '    pass'))).toEqual(['if done:\n']);
  });

  it('ends lines at \\n, \\r\\n and a lone \\r (which tree-sitter does not parse: such a file is kept)', async () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const text = ['x = 1', 'if done:', '    pass', 'while stop:', '    pass', ''].join(end);
      expect(headerTexts(text)).toEqual([`if done:${end}`, `while stop:${end}`]);
      if (end !== '\r') await expectTestsInHeaders(text);
    }
  });

  it('is null where the text does not tokenize: a string or bracket left open, a bracket closed twice', () => {
    expect(testHeaders('x = "open\nif done:\n    pass\n')).toBeNull();
    expect(testHeaders('x = """open\n')).toBeNull();
    expect(testHeaders('x = (1,\nif done:\n    pass\n')).toBeNull();
    expect(testHeaders('x = 1)\nif done:\n    pass\n')).toBeNull();
    expect(testHeaders('x = f"{a\n')).toBeNull();
    // Fields nested past the stack.
    expect(testHeaders(`x = f"${'{x:'.repeat(200_000)}${'}'.repeat(200_000)}"\n`)).toBeNull();
  });

  it('never throws, and its lines lie in the text in order, on any text made of what the scan looks at', () => {
    const text = fc
      .array(fc.constantFrom('if ', 'elif ', 'while ', 'case ', 'f', 'rb', 'x', ' ', '\t', '\n', '\r', '\\', '#', '"', "'", '"""', '(', ')', '[', ']', '{', '}', ':', '!r', '\\N{', '{{'), { maxLength: 60 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (source) => {
        const headers = testHeaders(source);
        let last = 0;
        for (const [start, end] of headers ?? []) {
          expect(start).toBeGreaterThanOrEqual(last);
          expect(end).toBeGreaterThan(start);
          expect(end).toBeLessThanOrEqual(source.length);
          last = end;
        }
      }),
      { numRuns: propertyRuns(8000), seed: 20261203 },
    );
  });
});

describe('whether a test may recognise a terminal event (the pre-filter)', () => {
  it('was written for the default terminal patterns, and stands aside for any others', () => {
    // If this fails, the vocabulary changed: add its words to DEFAULT_TERMINAL_TEXT in rules/python/test-headers.ts and
    // the patterns to COVERED_PATTERNS. Until then the pre-filter asks nothing of the tests (every file may report).
    expect(coversDefaultPatterns()).toBe(true);
    expect(coversDefaultPatterns([...DEFAULT_TERMINAL_PATTERNS, 'x'])).toBe(false);
    expect(TERMINAL_TEXT).not.toBeNull();
    expect(terminalTextFor(['^halt$'])).toBeNull();
    expect(mayRecogniseTerminal('x = 1\n', null)).toBe(true);
  });

  it('keeps a file whose test names a terminal event, not one that names it only in a docstring, comment or assignment', () => {
    const reading = (test: string, extra: string[] = []) =>
      lines(
        'async def read(response):',
        '    """Reads until done: the end of the stream."""',
        ...extra,
        '    async for line in response.aiter_lines():  # stop at [DONE]',
        `        if ${test}:`,
        '            await response.aclose()',
        '            return',
      );
    expect(mayReportPython(reading('line == "[DONE]"'))).toBe(true);
    expect(mayReportPython(reading('"result" in line'))).toBe(true);
    expect(mayReportPython(reading('line.startswith(PREFIX)', ['    done = "[DONE]"']))).toBe(false);
    expect(mayReportPython(reading('line.startswith(PREFIX)'))).toBe(false);
    // Other terminal patterns: the pre-filter cannot tell which words they recognise.
    expect(mayReportPython(reading('line.startswith(PREFIX)'), pythonAnalysisOptions({ terminalPatterns: ['prefix'] }))).toBe(true);
  });

  it('finds every token a default terminal pattern matches, in any case and joined any way, as a name or a string in a test', () => {
    const patterns = compilePatterns(DEFAULT_TERMINAL_PATTERNS);
    const piece = fc.oneof(
      fc.constantFrom('done', 'end', 'ended', 'complete', 'completed', 'finish', 'finished', 'stop', 'stopped', 'terminal', 'terminator', 'sentinel'),
      fc.constantFrom('[done]', 'received', 'response', 'json', 'rpc', 'result', 'error', 'reply', 'close', 'stream', 'message', 'is', 'http', 'x', '2'),
      fc.stringMatching(/^[a-z]{1,4}$/),
    );
    const casing = fc.constantFrom('lower', 'upper', 'capital', 'random');
    const joiner = fc.constantFrom('', '_', '.', '-', ' ', '__', ':');
    const token = fc.array(fc.tuple(piece, casing, joiner), { minLength: 1, maxLength: 4 }).chain((parts) =>
      fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }).map((flips) =>
        parts
          .map(([word, style, join], index) => {
            const cased =
              style === 'lower'
                ? word
                : style === 'upper'
                  ? word.toUpperCase()
                  : style === 'capital'
                    ? word[0].toUpperCase() + word.slice(1)
                    : [...word].map((char, at) => (flips[(index * 7 + at) % 40] ? char.toUpperCase() : char)).join('');
            return index === 0 ? cased : join + cased;
          })
          .join(''),
      ),
    );
    fc.assert(
      fc.property(token, (text) => {
        if (!matchesTerminal(text, patterns)) return;
        expect(mayRecogniseTerminal(`if x == "${text}":\n    pass\n`, TERMINAL_TEXT), `the string "${text}"`).toBe(true);
        const name = text.replace(/[^A-Za-z0-9_]/g, '_');
        if (/^[A-Za-z_]/.test(name) && matchesTerminal(name, patterns)) expect(mayRecogniseTerminal(`if ${name}:\n    pass\n`, TERMINAL_TEXT), `the name ${name}`).toBe(true);
      }),
      { numRuns: propertyRuns(4000), seed: 20261203 },
    );
  });
});

/** Debian's standard library: 680 files of Python of every age, f-strings, match statements and docstrings included. */
const STDLIB = '/usr/lib/python3.11';

function pythonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return pythonFiles(file);
    return entry.isFile() && entry.name.endsWith('.py') ? [file] : [];
  });
}

describe.skipIf(!existsSync(STDLIB))(`the test lines on real Python (skipped without ${STDLIB})`, () => {
  // A sweep against tree-sitter: every test it finds in a file it parses without error lies in a line the scan found.
  it(`hold every if, elif and while condition and case pattern of ${STDLIB}`, async () => {
    const missed: string[] = [];
    let tests = 0;
    let parsed = 0;
    for (const file of pythonFiles(STDLIB)) {
      const text = readFileSync(file, 'utf8');
      const tree = await parsePython(text);
      try {
        // A file that does not parse is reported as such, never on: the scan owes it nothing.
        if (tree.rootNode.hasError) continue;
        parsed++;
        const headers = testHeaders(text);
        if (headers === null) continue;
        for (const node of tree.rootNode.descendantsOfType(['if_statement', 'elif_clause', 'while_statement', 'case_clause'])) {
          if (!node) continue;
          const condition = node.childForFieldName('condition');
          const found: Node[] = node.type === 'case_clause' ? named(node).filter((child) => child.type !== 'block') : condition ? [condition] : [];
          for (const test of found) {
            tests++;
            if (!headers.some(([start, end]) => start <= test.startIndex && test.endIndex <= end)) missed.push(`${file}:${test.startPosition.row + 1} ${test.text}`);
          }
        }
      } finally {
        tree.delete();
      }
    }
    expect(parsed).toBeGreaterThan(500);
    expect(tests).toBeGreaterThan(10_000);
    expect(missed).toEqual([]);
  }, 300_000);
});
