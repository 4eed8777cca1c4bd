// rules/javascript/streams.ts: which expressions are response streams, and which response each belongs to. The probe
// rule (probe.ts) asks the resolver about the arguments of `probe(...)` (familyOf) and each `for await` (asyncLoopFamily).
import { describe, expect, it } from 'vitest';
import { familiesFound } from './probe.js';

function families(code: string): Array<[string, string | null]> {
  return familiesFound(code, (streams) => ({ calls: { probe: (argument) => streams.familyOf(argument) }, loop: (loop) => streams.asyncLoopFamily(loop) }));
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
