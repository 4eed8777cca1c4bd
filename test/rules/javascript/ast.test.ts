import { describe, expect, it } from 'vitest';
import { innermostFunctionAt } from '../../../rules/javascript/ast.js';
import { lintWith } from './probe.js';

/** The text of the function `innermostFunctionAt` finds around the first `marker` of `code`, or null. */
function functionAround(code: string, marker: string): string | null {
  let holder: string | null = null;
  lintWith(code, (sourceCode) => ({
    Program() {
      const offset = sourceCode.text.indexOf(marker);
      if (offset < 0) throw new Error(`no ${marker}`);
      const fn = innermostFunctionAt(sourceCode.ast, offset, sourceCode.visitorKeys);
      holder = fn ? sourceCode.getText(fn) : null;
    },
  }));
  return holder;
}

describe('innermostFunctionAt (the function an offset is in, for the helpers and the suggestion skeleton)', () => {
  it('finds the innermost function, a callback inside a method, and none at the top level', () => {
    const code = ['class Call {', '  run(items: number[]) {', '    items.forEach((item) => { void item; });', '  }', '}', 'const top = 1;'].join('\n');
    expect(functionAround(code, 'void item')).toBe('(item) => { void item; }');
    expect(functionAround(code, 'items.forEach')).toBe('(items: number[]) {\n    items.forEach((item) => { void item; });\n  }');
    expect(functionAround(code, 'top = 1')).toBeNull();
  });

  it('finds the function holding a close in a long array literal with a hole where the search by halves looks first', () => {
    // 22 elements: the function at index 3, the hole at index 10 (the middle, looked at first), numbers elsewhere.
    const elements = Array.from({ length: 22 }, (_, index) => String(index));
    elements[3] = 'function stop(c: AbortController) { c.abort(); }';
    elements[10] = '';
    expect(functionAround(`const table = [${elements.join(', ')}];`, '.abort()')).toBe('function stop(c: AbortController) { c.abort(); }');
  });

  it('takes a downleveled async body for the function it is written in, and for itself outside any function', () => {
    const method = [
      'declare const __awaiter: any, r: any;',
      'function read(url: string) {',
      '  var e_1: unknown;',
      '  return __awaiter(this, void 0, void 0, function* () { yield r.cancel(url, e_1); });',
      '}',
    ].join('\n');
    expect(functionAround(method, 'r.cancel')).toBe(method.slice(method.indexOf('function read')));
    const topLevel = ['declare const __awaiter: any, r: any;', '__awaiter(void 0, void 0, void 0, function* () { yield r.cancel(); });'].join('\n');
    expect(functionAround(topLevel, 'r.cancel')).toBe('function* () { yield r.cancel(); }');
    // A plain generator handed to another call is a function of its own.
    expect(functionAround('declare const run: any, r: any;\nrun(function* () { yield r.cancel(); });', 'r.cancel')).toBe('function* () { yield r.cancel(); }');
  });
});
