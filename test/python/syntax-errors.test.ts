// Python syntax errors named with the line, column and message CPython 3.11 gives (each expectation
// below was checked against `python3 -c 'compile(...)'`), the same in `lint` and in `fix`.
import { describe, expect, it } from 'vitest';
import { rewritePython } from '../../codemods/python/rewrite.js';
import { lintPythonText } from '../../rules/python/lint.js';

const CASES: [string, string, string][] = [
  ['async def f(response):\n    if response.done\n        await response.aclose()\n', '2:21', "expected ':'"],
  ['def f(x):\n    for a in x\n        pass\n', '2:15', "expected ':'"],
  ['def f(x)\n    return x\n', '1:9', "expected ':'"],
  ['class A(B)\n    pass\n', '1:11', "expected ':'"],
  ['async def f()\n    pass\n', '1:14', "expected ':'"],
  ['if x:\n    pass\nelse\n    pass\n', '3:5', "expected ':'"],
  ['try:\n    x = 1\nexcept (A, B) as e\n    pass\n', '3:19', "expected ':'"],
  ['match x:\n    case 1\n        pass\n', '2:11', "expected ':'"],
  ['async def g(client):\n    async with client.stream("GET", u) as r\n        pass\n', '2:44', "expected ':'"],
  ['x = (1,\ny = 2\n', '1:5', "'(' was never closed"],
  ['x = foo(1, 2\n', '1:8', "'(' was never closed"],
  ['x = (1, [2,\n', '1:9', "'[' was never closed"],
  ['def f():\n    x = [1,\n         2,\n    return x\n', '2:9', "'[' was never closed"],
  ['d = {\n  "a": 1,\n  "b": 2\n\nprint(d)\n', '1:5', "'{' was never closed"],
  ['def f(a, b:\n    pass\n', '1:6', "'(' was never closed"],
  ['x = (1,\ndef f(:\n', '2:1', 'invalid syntax'],
  ['def f(:\n    pass\n', '1:7', 'invalid syntax'],
  ['x = [1, 2)\n', '1:10', "closing parenthesis ')' does not match opening parenthesis '['"],
  ['x = )\n', '1:5', "unmatched ')'"],
  ["s = 'abc\n", '1:5', 'unterminated string literal (detected at line 1)'],
  ['s = """abc\n', '1:5', 'unterminated triple-quoted string literal (detected at line 1)'],
  ["def f(x)\n    s = 'abc\n", '2:9', 'unterminated string literal (detected at line 2)'],
  ["x = '''doc\nmore\n", '1:5', 'unterminated triple-quoted string literal (detected at line 2)'],
  ['def f():\npass\nx = (\n', '2:1', 'expected an indented block after function definition on line 1'],
  ['def f():\n    x = 1\n   y = 2\n    z = )\n', '3:9', 'unindent does not match any outer indentation level'],
  ['x = 1 +\n', '1:8', 'invalid syntax'],
  ['def f():\n    return x +\n', '2:15', 'invalid syntax'],
  ['return = 5\n', '1:8', 'invalid syntax'],
  ['a b\n', '1:3', 'invalid syntax'],
  ['def f(a, b):\n    return a b\n', '2:14', 'invalid syntax'],
];

describe('Python syntax errors, as CPython names them', () => {
  it.each(CASES)('%j: %s %s', async (text, where, message) => {
    const [line, column] = where.split(':').map(Number);
    expect((await lintPythonText(text, { prefilter: false })).messages).toEqual([{ ruleId: null, fatal: true, severity: 2, message: `Parsing error: ${message}`, line, column }]);
    expect(await rewritePython(text)).toEqual({ output: null, sites: [], parseError: `${where} Parsing error: ${message}` });
  });

  it('a file tree-sitter parses is linted even where CPython would reject it (a Python 2 print statement)', async () => {
    const text = 'print "hello"\ndef f(response):\n    for line in response.iter_lines():\n        if line == "[DONE]":\n            response.close()\n            return\n';
    expect((await lintPythonText(text)).messages.map((m) => [m.line, m.column, m.fatal])).toEqual([[5, 13, undefined]]);
  });
});
