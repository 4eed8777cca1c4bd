// rules/analysis/streams.ts: which expressions are response streams, and which response each belongs to. A probe rule
// asks the resolver about the arguments of `probe(...)` (familyOf), `probeRead(...)` (readResultFamily),
// `probeEof(...)` (eofFamily) and each `for await` (asyncLoopFamily); a family is shown as the text of the request
// call it comes from, or as the resolver's string for a response known only by its name.
import tsParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../rules/analysis/ast.js';
import { StreamResolver } from '../../../rules/analysis/streams.js';
import type { Family } from '../../../rules/analysis/effect.js';
import { asESLintRule } from '../../../rules/eslint-types.js';

type Probe = 'probe' | 'probeRead' | 'probeEof' | 'loop';
const PROBES: readonly string[] = ['probe', 'probeRead', 'probeEof'];

function families(code: string): Array<[Probe, string | null]> {
  const found: Array<[Probe, string | null]> = [];
  const rule: TSESLint.RuleModule<never, []> = {
    defaultOptions: [],
    meta: { type: 'problem', schema: [], messages: {} },
    create(context) {
      const { sourceCode } = context;
      const streams = new StreamResolver({ getScope: (node) => sourceCode.getScope(node), visitorKeys: sourceCode.visitorKeys });
      const show = (family: Family | null): string | null => {
        if (family === null || typeof family === 'string') return family;
        return 'range' in family ? sourceCode.getText(family as Node) : '(object)';
      };
      const ask = (kind: Probe, argument: Node): Family | null =>
        kind === 'probe' ? streams.familyOf(argument) : kind === 'probeRead' ? streams.readResultFamily(argument) : streams.eofFamily(argument);
      return {
        CallExpression(node: TSESTree.CallExpression) {
          if (node.callee.type !== AST_NODE_TYPES.Identifier || !PROBES.includes(node.callee.name)) return;
          const kind = node.callee.name as Probe;
          for (const argument of node.arguments) found.push([kind, show(ask(kind, argument))]);
        },
        'ForOfStatement[await=true]'(loop: TSESTree.ForOfStatement) {
          found.push(['loop', show(streams.asyncLoopFamily(loop))]);
        },
      };
    },
  };
  const config = { files: ['**/*.ts'], languageOptions: { parser: tsParser }, plugins: { test: { rules: { probe: asESLintRule(rule) } } }, rules: { 'test/probe': 'error' as const } };
  expect(new Linter().verify(code, [config], 'file.ts')).toEqual([]);
  return found;
}

describe('StreamResolver.familyOf', () => {
  it('a fetch response, its body, its reader and a pipe of it are one family: the request call', () => {
    const code = `async function f(url: string) {
  const res = await fetch(url);
  const reader = res.body!.getReader();
  const lines = res.body!.pipeThrough(new TextDecoderStream());
  probe(res, res.body, reader, lines);
}`;
    expect(families(code)).toEqual([
      ['probe', 'fetch(url)'],
      ['probe', 'fetch(url)'],
      ['probe', 'fetch(url)'],
      ['probe', 'fetch(url)'],
    ]);
  });

  it('two requests are two families', () => {
    const code = `async function f() {
  const a = await fetch('/a');
  const b = await fetch('/b');
  probe(a, b);
}`;
    expect(families(code)).toEqual([
      ['probe', "fetch('/a')"],
      ['probe', "fetch('/b')"],
    ]);
  });

  it('a call that takes a stream returns one of its family (an SSE parser over the response)', () => {
    const code = `async function f(url: string) {
  const response = await fetch(url);
  const events = iterSSE(response);
  probe(events);
}`;
    expect(families(code)).toEqual([['probe', 'fetch(url)']]);
  });

  it('an unknown value is no stream; a parameter or global with a response name is one, known by its name', () => {
    const code = `function f(job: unknown, res: unknown) {
  probe(job, res, response);
}`;
    const [job, res, global] = families(code);
    expect(job).toEqual(['probe', null]);
    expect(res[1]).not.toBeNull();
    expect(global).toEqual(['probe', 'global:response']);
  });

  it('a conditional or a fallback takes the family of the side that is a stream', () => {
    const code = `async function f(url: string, cached: unknown) {
  const res = await fetch(url);
  probe(cached ?? res, cached ? res : cached);
}`;
    expect(families(code)).toEqual([
      ['probe', 'fetch(url)'],
      ['probe', 'fetch(url)'],
    ]);
  });
});

describe('StreamResolver.readResultFamily and eofFamily', () => {
  it("a read of a reader is its response's read; a pending read held in a const too, not an awaited result; done is EOF", () => {
    const code = `async function f(url: string) {
  const reader = (await fetch(url)).body!.getReader();
  const pending = reader.read();
  const result = await reader.read();
  probeRead(reader.read(), pending, result);
  probeEof(result.done);
  const { done } = await reader.read();
  probeEof(done);
}`;
    expect(families(code)).toEqual([
      ['probeRead', 'fetch(url)'],
      ['probeRead', 'fetch(url)'],
      ['probeRead', null],
      ['probeEof', 'fetch(url)'],
      ['probeEof', 'fetch(url)'],
    ]);
  });

  it('a read raced against something else is still a read of that stream', () => {
    const code = `async function f(url: string, closed: Promise<void>) {
  const reader = (await fetch(url)).body!.getReader();
  probeRead(Promise.race([reader.read(), closed]));
}`;
    expect(families(code)).toEqual([['probeRead', 'fetch(url)']]);
  });

  it('the done of something that is not a read is no EOF', () => {
    const code = `async function f(job: { done: boolean }) {
  probeEof(job.done);
}`;
    expect(families(code)).toEqual([['probeEof', null]]);
  });
});

describe('StreamResolver.asyncLoopFamily', () => {
  it('a for await over a body, a response or a parser of one is a loop over that response; over other values it is not', () => {
    const code = `async function f(url: string, jobs: AsyncIterable<unknown>) {
  const res = await fetch(url);
  for await (const chunk of res.body!) {}
  for await (const event of iterSSE(res)) {}
  for await (const job of jobs) {}
}`;
    expect(families(code)).toEqual([
      ['loop', 'fetch(url)'],
      ['loop', 'fetch(url)'],
      ['loop', null],
    ]);
  });

  it('a loop that decodes its chunks as bytes runs over a stream known only by its name (a `stream` field)', () => {
    const code = `class Stream {
  constructor(private readonly stream: AsyncIterable<Uint8Array>) {}
  async *lines() {
    const decoder = new TextDecoder();
    for await (const chunk of this.stream) {
      yield decoder.decode(chunk);
    }
  }
}`;
    const [[kind, family]] = families(code);
    expect(kind).toBe('loop');
    expect(family).not.toBeNull();
  });
});
