import { describe, expect, it } from 'vitest';
import { helperCallOffsets } from '../../../rules/javascript/helper-calls.js';
import { lintWith } from './probe.js';

/** The calls found, each as the text from its offset to its `(`, and the names they were looked for by. */
function callsFound(code: string, closes: string[]): { calls: string[]; plain: string[]; methods: string[] } {
  let result: { calls: string[]; plain: string[]; methods: string[] } = { calls: [], plain: [], methods: [] };
  lintWith(code, (sourceCode) => ({
    Program() {
      const closeOffsets = closes.map((close) => sourceCode.text.indexOf(close));
      const found = helperCallOffsets(sourceCode.text, sourceCode.ast, sourceCode.visitorKeys, closeOffsets);
      result = {
        calls: found.offsets.map((offset) => sourceCode.text.slice(offset, sourceCode.text.indexOf('(', offset) + 1)),
        plain: [...found.names.plain],
        methods: [...found.names.methods],
      };
    },
  }));
  return result;
}

describe('helperCallOffsets (the calls of functions that hold a close, kept by the pre-filter)', () => {
  it('finds calls by name and this-method calls, two levels deep, and not declarations, methods of other objects or longer names', () => {
    const code = [
      'function stop(status: number, controller: AbortController) { controller.abort(); }',
      'class Call {',
      '  reader: any;',
      '  finish() { this.reader.cancel(); }',
      '  run(c: AbortController) {',
      '    stop(1, c);',
      '    this.finish();',
      '    other.stop(2);',
      '    nonstop(3);',
      '    $stop(4);',
      '    this . finish ();',
      '    that.finish();',
      '    $this.finish();',
      '    stop\t(5, c);',
      '  }',
      '}',
      'function relay(c: AbortController) { stop(0, c); }',
      'relay (x);',
      'function  relay(c: AbortController) {}',
      'const ref = typeof stop;',
      'declare const other: any, nonstop: any, $stop: any, x: any, that: any, $this: any;',
    ].join('\n');
    expect(callsFound(code, ['.abort()', '.cancel()'])).toEqual({
      calls: ['stop(', 'this.finish(', 'this . finish (', 'stop\t(', 'stop(', 'relay ('],
      plain: ['stop', 'relay'],
      methods: ['finish', 'run'],
    });
  });

  it('finds nothing for a close outside any function', () => {
    expect(callsFound('declare const r: any;\nr.cancel();\nfunction f() { return 1; }\nf();', ['.cancel()'])).toEqual({ calls: [], plain: [], methods: [] });
  });

  it('names the method a downleveled async body is written in, and nothing for such a body outside any function', () => {
    const code = [
      'declare const __awaiter: any, r: any;',
      'class Call {',
      '  finish() {',
      '    return __awaiter(this, void 0, void 0, function* () { yield r.cancel(); });',
      '  }',
      '  run() { this.finish(); }',
      '}',
      '__awaiter(void 0, void 0, void 0, function* () { r.abort(); });',
    ].join('\n');
    expect(callsFound(code, ['.cancel()', '.abort()'])).toEqual({ calls: ['this.finish('], plain: [], methods: ['finish', 'run'] });
  });
});
