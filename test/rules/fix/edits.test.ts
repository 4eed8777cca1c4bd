// codemods/edits.ts: the text each plan puts in place of a site, in the file's style. The helpers are bound by name
// here (no import, no copy), so each expected output is the site's rewrite alone, written literally.
import { describe, expect, it } from 'vitest';
import { EditBuilder } from '../../../rules/fix/edits.js';
import { findSites } from '../../../codemods/find-sites.js';
import type { HelperBinding } from '../../../rules/fix/helper-binding.js';
import type { PieceName } from '../../../rules/fix/helpers.js';
import { applyEdits } from '../../../rules/contract/apply-edits.js';
import { planSites } from '../../../rules/fix/plan.js';
import { detectStyle } from '../../../rules/fix/style.js';

class NamesOnly implements HelperBinding {
  readonly used = new Set<PieceName>();
  use(piece: PieceName): string {
    this.used.add(piece);
    return piece;
  }
  edits() {
    return [];
  }
}

function rewriteSites(code: string, file = 'case.ts'): { output: string; helpers: PieceName[] } {
  const { sites, sourceCode } = findSites(code, file);
  const binding = new NamesOnly();
  const builder = new EditBuilder(code, sourceCode, detectStyle(code, file.endsWith('.ts')), binding);
  for (const plan of planSites(sites, sourceCode)) {
    if (plan.kind === 'reader') builder.reader(plan);
    else if (plan.kind === 'loop') builder.loop(plan);
    else if (plan.kind === 'dataHandler') builder.dataHandler(plan);
    else if (plan.kind === 'iteratorTap') builder.iteratorTap(plan);
    else throw new Error(`manual: ${plan.reason}`);
  }
  return { output: applyEdits(code, builder.edits()), helpers: [...binding.used].sort() };
}

describe('EditBuilder', () => {
  it('a reader close becomes a detached drain that gives up with the same close', () => {
    const code = `export async function f(url: string) {
  const reader = (await fetch(url)).body!.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value === '[DONE]') {
      await reader.cancel('finished');
      return;
    }
  }
}`;
    expect(rewriteSites(code)).toEqual({
      output: `export async function f(url: string) {
  const reader = (await fetch(url)).body!.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value === '[DONE]') {
      void drainReader(reader, () => reader.cancel('finished'));
      return;
    }
  }
}`,
      helpers: ['drainReader'],
    });
  });

  it('keeps a file without semicolons without them', () => {
    const code = `export async function f(url: string) {
  const reader = (await fetch(url)).body!.getReader()
  while (true) {
    const { done, value } = await reader.read()
    if (done) return
    if (value === '[DONE]') {
      await reader.cancel()
      return
    }
  }
}`;
    expect(rewriteSites(code).output).toBe(`export async function f(url: string) {
  const reader = (await fetch(url)).body!.getReader()
  while (true) {
    const { done, value } = await reader.read()
    if (done) return
    if (value === '[DONE]') {
      void drainReader(reader, () => reader.cancel())
      return
    }
  }
}`);
  });

  it('a for await over a fetch body iterates a drainable tap of it, and the break hands the rest off first', () => {
    const code = `export async function f(res: Response) {
  for await (const chunk of res.body!) {
    if (String(chunk) === '[DONE]') break;
  }
}`;
    expect(rewriteSites(code)).toEqual({
      output: `export async function f(res: Response) {
  const tapped = tapBody(res.body!);
  const events = drainable(tapped.body, tapped.drain);
  for await (const chunk of events) {
    if (String(chunk) === '[DONE]') {
      events.drainInBackground();
      break;
    }
  }
}`,
      helpers: ['drainable', 'tapBody'],
    });
  });

  it('picks names the function does not use yet (events2 where events is taken)', () => {
    const code = `export async function f(res: Response, events: string[]) {
  for await (const chunk of res.body!) {
    events.push(String(chunk));
    if (String(chunk) === '[DONE]') return events;
  }
  return events;
}`;
    expect(rewriteSites(code).output).toBe(`export async function f(res: Response, events: string[]) {
  const tapped = tapBody(res.body!);
  const events2 = drainable(tapped.body, tapped.drain);
  for await (const chunk of events2) {
    events.push(String(chunk));
    if (String(chunk) === '[DONE]') {
      events2.drainInBackground();
      return events;
    }
  }
  return events;
}`);
  });

  it('keeps CRLF line endings', () => {
    const code = 'export async function f(url: string) {\r\n  const reader = (await fetch(url)).body!.getReader();\r\n  for (;;) {\r\n    const { done, value } = await reader.read();\r\n    if (done) return;\r\n    if (value === "[DONE]") {\r\n      reader.cancel();\r\n      return;\r\n    }\r\n  }\r\n}\r\n';
    expect(rewriteSites(code).output).toBe(
      'export async function f(url: string) {\r\n  const reader = (await fetch(url)).body!.getReader();\r\n  for (;;) {\r\n    const { done, value } = await reader.read();\r\n    if (done) return;\r\n    if (value === "[DONE]") {\r\n      void drainReader(reader, () => reader.cancel());\r\n      return;\r\n    }\r\n  }\r\n}\r\n',
    );
  });

  it("a destroy in a Node 'data' handler drains the stream there", () => {
    const code = `import http from 'node:http';
export function f(url: string, done: (text: string) => void) {
  http.get(url, (res) => {
    res.on('data', (chunk) => {
      if (String(chunk).includes('[DONE]')) {
        res.destroy();
        done(String(chunk));
      }
    });
  });
}`;
    expect(rewriteSites(code)).toEqual({
      output: `import http from 'node:http';
export function f(url: string, done: (text: string) => void) {
  http.get(url, (res) => {
    res.on('data', (chunk) => {
      if (String(chunk).includes('[DONE]')) {
        drainNodeStream(res, () => res.destroy());
        done(String(chunk));
      }
    });
  });
}`,
      helpers: ['drainNodeStream'],
    });
  });
});
