// codemods/plan.ts: how each site the rule reports is to be rewritten (or left manual, with the reason). The sites
// come from the rule (findSites); each plan is shown as plain text and values, written literally here.
import { describe, expect, it } from 'vitest';
import { findSites } from '../../../codemods/find-sites.js';
import type { GiveUp } from '../../../rules/fix/give-up.js';
import { COMPILED_OUTPUT_REASON, READS_ON_REASON, planSites, type Plan } from '../../../rules/fix/plan.js';

const giveUpText = (giveUp: GiveUp): string => `(${giveUp.param ?? ''}) => ${giveUp.body(giveUp.param ?? '')}`;

function plans(code: string, file = 'case.ts'): unknown[] {
  const { sites, sourceCode, parseError } = findSites(code, file);
  expect(parseError).toBeUndefined();
  const at = (node: { loc: { start: { line: number; column: number } } }) => `${node.loc.start.line}:${node.loc.start.column + 1}`;
  return planSites(sites, sourceCode).map((plan: Plan) => {
    switch (plan.kind) {
      case 'reader':
        return {
          kind: 'reader',
          at: `${plan.site.line}:${plan.site.column}`,
          statement: sourceCode.getText(plan.statement),
          drained: plan.drained,
          method: plan.method,
          giveUp: giveUpText(plan.giveUp),
          detached: plan.detached,
          optional: plan.optional,
          finally: plan.finallyOf !== null,
          flag: plan.flag,
        };
      case 'loop':
        return {
          kind: 'loop',
          loop: at(plan.loop),
          drain: plan.drain.kind === 'iterator' ? `iterator ${giveUpText(plan.drain.giveUp)}` : plan.drain.kind === 'tap' ? `tap ${plan.drain.what}` : 'body',
          changes: plan.changes.map((change) => `${change.kind} ${sourceCode.getText(change.statement)}`),
        };
      case 'dataHandler':
        return { kind: 'dataHandler', statement: sourceCode.getText(plan.statement), stream: plan.stream, giveUp: giveUpText(plan.giveUp) };
      case 'manual':
        return { kind: 'manual', at: `${plan.site.line}:${plan.site.column}`, reason: plan.reason };
    }
  });
}

describe('planSites: a reader in hand', () => {
  it('a cancel after the terminal event, with nothing reading the reader after it: a detached drain that gives up with the same cancel', () => {
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
    expect(plans(code)).toEqual([
      {
        kind: 'reader',
        at: '7:13',
        statement: "await reader.cancel('finished');",
        drained: 'reader',
        method: 'read',
        giveUp: "() => reader.cancel('finished')",
        detached: true,
        optional: false,
        finally: false,
        flag: null,
      },
    ]);
  });

  it('an optional close (reader?.cancel()) drains only when the reader is there', () => {
    const code = `export async function f(res: Response) {
  const reader = res.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value === 'message_stop') {
      reader?.cancel();
      break;
    }
  }
}`;
    expect(plans(code)).toEqual([
      {
        kind: 'reader',
        at: '7:7',
        statement: 'reader?.cancel();',
        drained: 'reader',
        method: 'read',
        giveUp: '() => reader.cancel()',
        detached: true,
        optional: true,
        finally: false,
        flag: null,
      },
    ]);
  });

  it('a loop that reads the reader again after the close (relying on the next read seeing the end) stays manual', () => {
    const code = `export async function f(res: Response) {
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value === '[DONE]') reader.cancel();
  }
}`;
    expect(plans(code)).toEqual([{ kind: 'manual', at: '6:29', reason: READS_ON_REASON }]);
  });
});

describe('planSites: a for await over the body', () => {
  it("a break at the terminal event: the loop runs over the fetch body's tap, and the break hands the rest off", () => {
    const code = `export async function f(res: Response) {
  for await (const chunk of res.body!) {
    if (chunk.length === 0) continue;
    if (String(chunk) === '[DONE]') break;
  }
}`;
    expect(plans(code)).toEqual([{ kind: 'loop', loop: '2:3', drain: 'tap body', changes: ['jump break;'] }]);
  });

  it('a loop over a parser given the response taps the response (the drain reads raw bytes)', () => {
    const code = `export async function f(url: string) {
  const response = await fetch(url);
  for await (const event of iterSSE(response)) {
    if (event.data === '[DONE]') return;
  }
}`;
    expect(plans(code)).toEqual([{ kind: 'loop', loop: '3:3', drain: 'tap response', changes: ['jump return;'] }]);
  });

  it('compiled output (__asyncValues) is left to its source', () => {
    const code = `async function f(response) {
  var _a, _b, _c;
  for (var _d = true, _e = __asyncValues(response.body), _f; _f = await _e.next(), _a = _f.done, !_a; _d = true) {
    _c = _f.value;
    _d = false;
    const line = _c;
    if (line === 'event: end') return;
  }
}`;
    expect(plans(code, 'case.js')).toEqual([{ kind: 'manual', at: '7:32', reason: COMPILED_OUTPUT_REASON }]);
  });
});

describe("planSites: a Node 'data' handler", () => {
  it("a destroy in a 'data' handler drains the stream and gives up with the same destroy", () => {
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
    expect(plans(code)).toEqual([{ kind: 'dataHandler', statement: 'res.destroy();', stream: 'res', giveUp: '() => res.destroy()' }]);
  });
});
