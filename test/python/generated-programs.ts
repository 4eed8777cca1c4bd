/**
 * Python functions built around stream code — read loops (`for`, `async for`, `while`), branches on terminal /
 * exempt / neutral tests, closes, break/continue/return/raise, try/except/else/finally, with/async with, match — and
 * the property the rule and the fix keep on them (test/python/never-throws.test.ts, in process; CPython compiles the
 * rewrites in test/integration/python/never-throws.test.ts). Programs are valid by construction (jumps only inside loops).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { rewritePython } from '../../codemods/python/rewrite.js';
import { mayReportPython } from '../../rules/python/analyze.js';
import { lintPythonText } from '../../rules/python/lint.js';

const TESTS = [
  'is_complete', 'not is_complete', 'sse.data == "[DONE]"', 'sse.data.startswith("[DONE]")', 'event["type"] == "message_stop"',
  'isinstance(msg, JSONRPCResponse | JSONRPCError)', '"result" in msg or "error" in msg', 'done', 'finished and not error',
  'response.status_code != 200', 'line == "event: error"', 'time.monotonic() - started > 5', 'scope.cancel_called',
  'line', 'x > 1', 'line is None', 'not line', 'msg.id == request_id',
];
const CLOSES = ['await response.aclose()', 'response.close()', 'event_source.response.close()', 'resp.release()', 'timer.close()', 'f.close()'];
const ITERS = ['response.aiter_lines()', 'event_source.aiter_sse()', 'iterator', 'response.iter_lines()', 'range(3)', 'resp.content'];
const SIMPLE = ['pass', 'x = 1', 'messages.append(line)', 'is_complete = await handle(line)', 'finished = True', 'log(line)'];

type Gen = fc.Arbitrary<string[]>;

function block(depth: number, inLoop: boolean, isAsync: boolean): Gen {
  return fc.array(statement(depth, inLoop, isAsync), { minLength: 1, maxLength: 3 }).map((parts) => parts.flat());
}

const indent = (lines: string[]) => lines.map((line) => `    ${line}`);

function statement(depth: number, inLoop: boolean, isAsync: boolean): Gen {
  const simple: Gen[] = [
    fc.constantFrom(...SIMPLE).map((line) => [isAsync ? line : line.replace('await ', '')]),
    fc.constantFrom(...CLOSES).map((line) => [isAsync ? line : line.replace('await response.aclose()', 'response.close()')]),
    fc.constant(['return']),
    fc.constant(['raise RuntimeError("x")']),
  ];
  if (inLoop) simple.push(fc.constant(['break']), fc.constant(['continue']));
  if (depth <= 0) return fc.oneof(...simple);
  const inner = (loop: boolean) => block(depth - 1, loop, isAsync);
  const compound: Gen[] = [
    fc.tuple(fc.constantFrom(...TESTS), inner(inLoop), fc.option(inner(inLoop), { nil: undefined })).map(([test, yes, no]) => [
      `if ${test}:`,
      ...indent(yes),
      ...(no ? ['else:', ...indent(no)] : []),
    ]),
    fc.tuple(fc.constantFrom(...ITERS), fc.boolean(), inner(true)).map(([iter, async_, body]) => [
      `${async_ && isAsync && !iter.startsWith('range') ? 'async for' : 'for'} line in ${iter}:`,
      ...indent(body),
    ]),
    fc.tuple(fc.constantFrom(...TESTS), inner(true)).map(([test, body]) => [`while ${test}:`, ...indent(body)]),
    fc.tuple(inner(inLoop), inner(inLoop), fc.option(inner(inLoop), { nil: undefined })).map(([body, handler, final]) => [
      'try:',
      ...indent(body),
      'except Exception:',
      ...indent(handler),
      ...(final ? ['finally:', ...indent(final)] : []),
    ]),
    fc.tuple(fc.boolean(), inner(inLoop)).map(([async_, body]) => [
      `${async_ && isAsync ? 'async with' : 'with'} client.stream("GET", url) as response:`,
      ...indent(body),
    ]),
    fc.tuple(inner(inLoop), inner(inLoop)).map(([first, rest]) => ['match line:', '    case "message_stop":', ...indent(indent(first)), '    case _:', ...indent(indent(rest))]),
  ];
  return fc.oneof({ weight: 2, arbitrary: fc.oneof(...simple) }, { weight: 3, arbitrary: fc.oneof(...compound) });
}

const program: fc.Arbitrary<string> = fc
  .tuple(fc.boolean(), block(3, false, true))
  .map(([isAsync, body]) => {
    const text = body.join('\n');
    const lines = isAsync ? body : text.replace(/async (for|with) /g, '$1 ').replace(/await /g, '').split('\n');
    return `import httpx\n\n\n${isAsync ? 'async def' : 'def'} run(client, url, iterator, handle, log):\n${indent(lines).join('\n')}\n`;
  });

/**
 * Lints and rewrites 400 generated programs (a fixed seed: the same programs every run): the rule never throws, its
 * reports lie in the file, the pre-filter keeps every program reported on, the fix finds the sites the rule reports and
 * leaves only the manual ones. The number of reports and the rewritten files, for the checks that follow.
 */
export async function lintAndRewriteGenerated(): Promise<{ reported: number; rewritten: string[] }> {
  const rewritten: string[] = [];
  let reported = 0;
  await fc.assert(
    fc.asyncProperty(program, async (text) => {
      const { messages } = await lintPythonText(text, { prefilter: false });
      const lineCount = text.split('\n').length;
      for (const message of messages) {
        expect(message.fatal).toBeUndefined();
        expect(message.line).toBeGreaterThanOrEqual(1);
        expect(message.line).toBeLessThanOrEqual(lineCount);
      }
      reported += messages.length;
      // The pre-filter never rules out a program the rule reports on.
      if (messages.length > 0) expect(mayReportPython(text)).toBe(true);
      const result = await rewritePython(text);
      expect(result.parseError).toBeUndefined();
      expect(result.sites.length).toBe(messages.filter((message) => message.ruleId).length);
      if (result.output !== null) {
        const manual = result.sites.filter((site) => site.status === 'manual').length;
        expect((await lintPythonText(result.output, { prefilter: false })).messages.length).toBe(manual);
        rewritten.push(result.output);
      }
    }),
    { numRuns: 400, seed: 20261201 },
  );
  return { reported, rewritten };
}
