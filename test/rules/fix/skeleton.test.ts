// rules/fix/skeleton.ts: the cut-down text the rule's suggestions are parsed in. Each expected skeleton is written
// literally; the kept range is found by searching the source for a marker, never by the code under test.
import { describe, expect, it } from 'vitest';
import { findSites } from '../../../codemods/find-sites.js';
import { skeletonOf, type Range } from '../../../rules/fix/skeleton.js';

function skeleton(code: string, file: string, marker: string, written: readonly string[] = []): { text: string; at: (offset: number) => number; start: number } {
  const { sourceCode } = findSites(code, file);
  const start = code.indexOf(marker);
  if (start < 0) throw new Error(`no ${marker}`);
  const kept: Range[] = [[start, start + marker.length]];
  return { ...skeletonOf(sourceCode, kept, new Set(written)), start };
}

describe('skeletonOf', () => {
  it('keeps the function with the kept range whole and cuts other bodies, statements and initializers', () => {
    const code = `'use strict';
import { open } from './open.js';
const table = { a: 1, b: [2, 3] };
console.log(table);
export function unrelated(x) {
  return x * 2;
}
export const arrow = (y) => y + 1;
export class Client extends Base {
  #secret = 1;
  method() {
    return this.#secret;
  }
}
export async function read(url) {
  const reader = (await open(url)).getReader();
  items.forEach((item) => {
    console.log(item);
  });
  await reader.cancel();
}
if (table.a) {
  read('x');
}
export { table };
`;
    const { text } = skeleton(code, 'module.js', 'reader.cancel()');
    expect(text).toBe(`'use strict';
import { open } from './open.js';
;
;
export function unrelated(x) {}
export const arrow = 0;
export class Client extends Base {}
export async function read(url) {
  const reader = (await open(url)).getReader();
  items.forEach((item) => {
    console.log(item);
  });
  await reader.cancel();
}
;
;
`);
  });

  it('keeps the path down to a nested function, with its class (private names) and its enclosing async function', () => {
    const code = `async function outer() {
  const unused = compute(1, 2);
  helper();
  class Reader {
    #body;
    other() { return 1; }
    async take() {
      for await (const chunk of this.#body) { if (chunk === 'done') break; }
    }
  }
  const shortcut = () => 42;
  return new Reader();
}
`;
    const { text } = skeleton(code, 'nested.js', 'break;');
    expect(text).toBe(`async function outer() {
  ;
  ;
  class Reader {
    #body;
    other() {}
    async take() {
      for await (const chunk of this.#body) { if (chunk === 'done') break; }
    }
  }
  ;
  ;
}
`);
  });

  it('keeps whole the method a downleveled async body is written in (older TypeScript hoists `var e_1, _a;` out of the body), and such a body outside any function', () => {
    const method = `import { open } from './open.js';
const unrelated = compute();
export class Client {
    read(url) {
        var e_1, _a;
        return __awaiter(this, void 0, void 0, function* () {
            const reader = (yield open(url)).getReader();
            yield reader.cancel();
        });
    }
    other() {
        return 1;
    }
}
`;
    expect(skeleton(method, 'downleveled.js', 'reader.cancel()').text).toBe(`import { open } from './open.js';
;
export class Client {
    read(url) {
        var e_1, _a;
        return __awaiter(this, void 0, void 0, function* () {
            const reader = (yield open(url)).getReader();
            yield reader.cancel();
        });
    }
    other() {}
}
`);
    const topLevel = `const unrelated = compute();
__awaiter(void 0, void 0, void 0, function* () {
    const unused = compute();
    yield reader.cancel();
});
`;
    expect(skeleton(topLevel, 'top-level.js', 'reader.cancel()').text).toBe(`;
__awaiter(void 0, void 0, void 0, function* () {
    const unused = compute();
    yield reader.cancel();
});
`);
  });

  it('maps an offset of the file to the same text in the skeleton', () => {
    const code = `function before() {
  return 'a long body that the skeleton cuts out';
}
export async function read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  await reader.cancel();
}
`;
    const { text, at, start } = skeleton(code, 'mapped.ts', 'reader.cancel()');
    expect(text).toBe(`;
export async function read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  await reader.cancel();
}
`);
    expect(text.slice(at(start), at(start) + 'reader.cancel()'.length)).toBe('reader.cancel()');
    expect(at(0)).toBe(0);
    expect(at(code.length)).toBe(text.length);
  });

  it('keeps the top-level declarations of the names the rewrite writes and re-exports, and cuts the rest with the export lists that name them', () => {
    const code = `var drainChunks = require('./drain'), other = 1;
function DRAIN_LIMITS() {
  return 1;
}
let { a, b: [c] } = load();
class Unused {
  method() {}
}
const listed = 2;
export { listed as renamed };
export { helper } from './helper.js';
export async function read(reader) {
  await reader.cancel();
}
`;
    expect(skeleton(code, 'bundle.mjs', 'reader.cancel()', ['drainChunks', 'DRAIN_LIMITS', 'c']).text).toBe(`var drainChunks = 0, other = 0;
function DRAIN_LIMITS() {}
let { a, b: [c] } = 0;
;
;
;
export { helper } from './helper.js';
export async function read(reader) {
  await reader.cancel();
}
`);
    expect(skeleton(code, 'bundle.mjs', 'reader.cancel()', ['listed']).text).toBe(`;
;
;
;
const listed = 0;
;
export { helper } from './helper.js';
export async function read(reader) {
  await reader.cancel();
}
`);
  });

  it('cuts the comments outside the kept ranges, a multi-line block comment to a line break', () => {
    const code = `#!/usr/bin/env node
// node_modules/zod/index.js
/** Reads it. */
export async function read(reader) {
  // inside the kept function
  await reader.cancel(/* inside the site */); /* after the site */
  return /*
  */ 1;
}
`;
    expect(skeleton(code, 'bin.mjs', 'reader.cancel(/* inside the site */);').text).toBe(`


export async function read(reader) {
  
  await reader.cancel(/* inside the site */); 
  return 
 1;
}
`);
  });

  it('keeps a declaration whose type annotation names a written name, and ends a line at a CR or U+2028 in a block comment', () => {
    const code = `declare const api: { drainChunks(body: unknown): void };
declare const other: { close(): void };
const plain = 1, { drainChunks: renamed } = load();
/* one\u2028two */ /* three\rfour */ /* five */
export async function read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  await reader.cancel();
}
`;
    expect(skeleton(code, 'typed.ts', 'reader.cancel()', ['drainChunks']).text).toBe(`declare const api: { drainChunks(body: unknown): void };
;
const plain = 0, { drainChunks: renamed } = 0;

 
 
export async function read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  await reader.cancel();
}
`);
  });

  it('leaves a file without other functions or statements as it is', () => {
    const code = `export async function read(reader) {
  await reader.cancel();
}
`;
    expect(skeleton(code, 'whole.js', 'reader.cancel()').text).toBe(code);
  });
});
