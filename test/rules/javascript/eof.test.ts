// rules/javascript/eof.ts: which response's EOF a test reads. The probe rule (probe.ts) asks the tracker about the
// arguments of `probeRead(...)` (readResultFamily) and `probeEof(...)` (eofFamily).
import { describe, expect, it } from 'vitest';
import { EofTracker } from '../../../rules/javascript/eof.js';
import { familiesFound } from './probe.js';

function families(code: string): Array<[string, string | null]> {
  return familiesFound(code, (streams) => {
    const eof = new EofTracker(streams);
    return { calls: { probeRead: (argument) => eof.readResultFamily(argument), probeEof: (argument) => eof.eofFamily(argument) } };
  });
}

describe('EofTracker.readResultFamily and eofFamily', () => {
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
  it('a read result assigned later, a done destructured by assignment and an assignment inside the test are EOF of that read', () => {
    const code = `async function f(url: string) {
  const reader = (await fetch(url)).body!.getReader();
  let result;
  result = await reader.read();
  probeEof(result.done);
  let done;
  ({ done } = await reader.read());
  probeEof(done);
  let next;
  probeEof((next = await reader.read()).done);
}`;
    expect(families(code)).toEqual([
      ['probeEof', 'fetch(url)'],
      ['probeEof', 'fetch(url)'],
      ['probeEof', 'fetch(url)'],
    ]);
  });

  it("the done of a read's callback, whole or destructured, is EOF; a flag copied from a done is too", () => {
    const code = `async function f(url: string) {
  const reader = (await fetch(url)).body!.getReader();
  reader.read().then((result) => probeEof(result.done));
  reader.read().then(({ done }) => probeEof(done));
  const { done } = await reader.read();
  const finished = done;
  probeEof(finished);
}`;
    expect(families(code)).toEqual([
      ['probeEof', 'fetch(url)'],
      ['probeEof', 'fetch(url)'],
      ['probeEof', 'fetch(url)'],
    ]);
  });

  it("next() of a response's async iterator is a read; a value or a done of another object is not", () => {
    const code = `async function f(url: string, job: { done: boolean }) {
  const res = await fetch(url);
  const it = res.body![Symbol.asyncIterator]();
  const step = await it.next();
  probeEof(step.done);
  const { value } = await it.next();
  const { done } = job;
  probeEof(value, done);
}`;
    expect(families(code)).toEqual([
      ['probeEof', 'fetch(url)'],
      ['probeEof', null],
      ['probeEof', null],
    ]);
  });
});
