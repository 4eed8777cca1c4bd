// rules/fix/skeleton.ts: the cut-down text the rule's suggestions are parsed in. Each expected skeleton is written
// literally; the kept range is found by searching the source for a marker, never by the code under test.
import { describe, expect, it } from 'vitest';
import { findSites } from '../../../codemods/find-sites.js';
import { skeletonOf, type Range } from '../../../rules/fix/skeleton.js';

function skeleton(code: string, file: string, marker: string): { text: string; at: (offset: number) => number; start: number } {
  const { sourceCode } = findSites(code, file);
  const start = code.indexOf(marker);
  if (start < 0) throw new Error(`no ${marker}`);
  const kept: Range[] = [[start, start + marker.length]];
  return { ...skeletonOf(sourceCode, kept), start };
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
const table = 0;
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
export { table };
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

  it('maps an offset of the file to the same text in the skeleton', () => {
    const code = `function before() {
  return 'a long body that the skeleton cuts out';
}
export async function read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  await reader.cancel();
}
`;
    const { text, at, start } = skeleton(code, 'mapped.ts', 'reader.cancel()');
    expect(text).toBe(`function before() {}
export async function read(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  await reader.cancel();
}
`);
    expect(text.slice(at(start), at(start) + 'reader.cancel()'.length)).toBe('reader.cancel()');
    expect(at(0)).toBe(0);
    expect(at(code.length)).toBe(text.length);
  });

  it('leaves a file without other functions or statements as it is', () => {
    const code = `export async function read(reader) {
  await reader.cancel();
}
`;
    expect(skeleton(code, 'whole.js', 'reader.cancel()').text).toBe(code);
  });
});
