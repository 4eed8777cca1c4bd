/**
 * Properties of the rule on any program built around stream code — reads, read loops, `for await`
 * (native and downleveled), branches on terminal / exempt / neutral tests, break/continue/return
 * (labeled too), try/catch/finally, switch, nested callbacks, classes and generators:
 * - it never throws (a throw in a rule makes `Linter#verify` throw);
 * - every report lies inside the text, its end after its start;
 * - every report is on a close or a jump: an `explicitClose` on a call of one of the configured
 *   close methods, an `implicitClose` on a `break`/`continue`/`return` inside an async loop;
 * - the same input gives the same reports (no state leaks from one file to the next).
 *
 * Generated programs are syntactically valid by construction (jumps only where a target exists); a
 * sanity check asserts that nearly all of them parse, so the property does exercise the rule.
 */
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../support/property-runs.js';
import { DEFAULT_CLOSE_METHODS } from '../../rules/javascript/prefilter.js';
import rule from '../../rules/no-early-stream-close.js';
import { asESLintRule } from '../../rules/eslint-types.js';

interface Context {
  loop: boolean;
  asyncLoop: boolean;
  switchCase: boolean;
  label: string | null;
  loopLabel: string | null;
}

const TESTS = [
  // terminal
  'done', 'value.done', 'chunk.done', "chunk.type === 'message_stop'", "value === '[DONE]'", 'isComplete(value)',
  'finished', '!finished', "event.event === 'end'", 'receivedResponse', "'result' in msg", 'isJSONRPCResponse(msg)',
  'msg.id === id && msg.error', "item?.done", "line.includes('data: [DONE]')", 'value.stop_reason', 'sawTerminalEvent',
  // exempt
  'signal.aborted', 'err', 'res.status !== 200', '!res.ok', 'bytes > maxSize', '++count > 10', 'Date.now() > deadline',
  'value.error', 'cancelled', 'timeout',
  // neutral and mixed
  'value', 'chunk', 'x > 1', "typeof value === 'string'", "chunk.type === 'message_stop' && !signal.aborted",
  'done || finished', '!(done && value)', 'a ? b : c', 'value?.index === 3', 'r.done', '(await reader.read()).done',
];

const CLOSES = [
  'reader.cancel();', 'await reader.cancel();', "await reader.cancel('done');", 'res.body.cancel();', 'controller.abort();',
  'res.destroy();', 'await it.return();', 'events.aclose();', 'upstream?.cancel();', 'job.cancel();', 'source.close();',
  'reader.releaseLock();',
];

const SIMPLE = [
  '({ done, value } = await reader.read());', 'r = await reader.read();', 'emit(value);', 'finished = true;',
  'finished = false;', 'receivedResponse = true;', 'sawTerminalEvent = true;', 'count++;', 'value = parse(chunk);',
  'done = true;', ';',
];

const LOOP_HEADS = [
  'for await (const chunk of res.body)', 'for await (const event of iterSSE(res, signal))', 'while (true)', 'while (!finished)',
  'for (;;)', 'for (const line of lines)', 'while (!done)',
];

/** Arbitraries per (context, depth), memoised so that building them stays linear in the depth. */
const memo = new Map<string, fc.Arbitrary<string>>();

function block(ctx: Context, depth: number): fc.Arbitrary<string> {
  return fc.array(statement(ctx, depth), { maxLength: 4 }).map((items) => `{\n${items.join('\n')}\n}`);
}

function statement(ctx: Context, depth: number): fc.Arbitrary<string> {
  const key = `${JSON.stringify(ctx)}/${depth}`;
  const cached = memo.get(key);
  if (cached) return cached;

  const leaves: fc.Arbitrary<string>[] = [fc.constantFrom(...SIMPLE), fc.constantFrom(...CLOSES), fc.constantFrom('return;', 'return value;')];
  if (ctx.loop) leaves.push(fc.constantFrom('break;', 'continue;'));
  if (ctx.switchCase && !ctx.loop) leaves.push(fc.constant('break;'));
  if (ctx.label) leaves.push(fc.constant(`break ${ctx.label};`));
  if (ctx.loopLabel) leaves.push(fc.constantFrom(`break ${ctx.loopLabel};`, `continue ${ctx.loopLabel};`));
  const leaf = fc.oneof(...leaves);
  if (depth === 0) {
    memo.set(key, leaf);
    return leaf;
  }

  const inner = depth - 1;
  const test = fc.constantFrom(...TESTS);
  const inLoop: Context = { ...ctx, loop: true, switchCase: false };
  const inFunction: Context = { loop: false, asyncLoop: false, switchCase: false, label: null, loopLabel: null };
  const labelName = `L${depth}`;
  const compound = fc.oneof(
    fc.tuple(test, block(ctx, inner), fc.option(block(ctx, inner))).map(([t, a, b]) => `if (${t}) ${a}${b ? ` else ${b}` : ''}`),
    fc.tuple(test, statement(ctx, 0)).map(([t, s]) => `if (${t}) ${s}`),
    fc.tuple(fc.constantFrom(...LOOP_HEADS), block(inLoop, inner)).map(([head, body]) => `${head} ${body}`),
    fc.tuple(fc.constantFrom(...LOOP_HEADS), block(inLoop, inner)).map(
      ([head, body]) => `${head} {\nconst { done, value } = await reader.read();\nconst r = await it.next();\n${body}\n}`,
    ),
    fc.tuple(fc.constantFrom(...LOOP_HEADS), block({ ...inLoop, loopLabel: `outer${depth}` }, inner)).map(
      ([head, body]) => `outer${depth}: ${head} ${body}`,
    ),
    fc.tuple(block(inLoop, inner), test).map(([body, t]) => `do ${body} while (${t});`),
    fc.tuple(block(ctx, inner), fc.option(block(ctx, inner)), fc.option(block(ctx, inner))).map(([t, c, f]) =>
      c || f ? `try ${t}${c ? ` catch (err) ${c}` : ''}${f ? ` finally ${f}` : ''}` : `try ${t} catch {}`,
    ),
    fc.tuple(fc.array(fc.tuple(fc.constantFrom("'message_stop'", "'ping'", "'error'", "'done'", "'content_block_delta'"), fc.array(statement({ ...ctx, switchCase: true }, inner), { maxLength: 3 })), { minLength: 1, maxLength: 3 }), fc.boolean()).map(
      ([cases, withDefault]) =>
        `switch (event.type) {\n${cases.map(([label, body]) => `case ${label}:\n${body.join('\n')}`).join('\n')}${withDefault ? '\ndefault:\nbreak;' : ''}\n}`,
    ),
    block({ ...ctx, label: labelName }, inner).map((body) => `${labelName}: ${body}`),
    fc.tuple(fc.constantFrom(
      (b: string) => `queueMicrotask(async () => ${b});`,
      (b: string) => `setTimeout(async () => ${b}, 1000);`,
      (b: string) => `signal.addEventListener('abort', async () => ${b});`,
      (b: string) => `res.on('data', async function (chunk) ${b});`,
      (b: string) => `reader.read().then(async function pump({ done, value }) ${b});`,
      (b: string) => `{ async function inner() ${b} }`,
      (b: string) => `{ const gen = async function* () ${b}; }`,
      (b: string) => `{ class C { async pull(controller) ${b} async cancel(reason) ${b} } }`,
      (b: string) => `{ const src = new ReadableStream({ async pull(downstream) ${b}, cancel: async () => ${b} }); }`,
    ), block(inFunction, inner)).map(([wrap, body]) => wrap(body)),
    fc.tuple(test, statement(ctx, inner)).map(([t, s]) => `${t} && reader.cancel(); ${s}`),
    fc.tuple(test, block(inLoop, inner)).map(
      ([t, body]) =>
        `for (var _d = true, _e = __asyncValues(res.body), _f; _f = await _e.next(), _a = _f.done, !_a; _d = true) {\n_c = _f.value;\n_d = false;\nconst chunk = _c;\nif (${t}) break;\n${body}\n}`,
    ),
  );
  const result = fc.oneof({ weight: 2, arbitrary: leaf }, { weight: 3, arbitrary: compound });
  memo.set(key, result);
  return result;
}

const PRELUDE = [
  'var finished = false, receivedResponse = false, sawTerminalEvent = false, done = false, count = 0, _a, _c;',
  'var res = await fetch(url, { signal: controller.signal });',
  'var reader = res.body.getReader();',
  'var it = res.body[Symbol.asyncIterator]();',
  'var events = iterSSE(res, signal);',
  'var upstream = responseBody.getReader();',
  'var value, chunk, event, msg, r, x, a, b, c, lines = [];',
].join('\n');

const topContext: Context = { loop: false, asyncLoop: false, switchCase: false, label: null, loopLabel: null };

const program = fc
  .tuple(fc.array(statement(topContext, 4), { minLength: 1, maxLength: 5 }), fc.constantFrom('function', 'generator', 'method', 'arrow'))
  .map(([body, shape]) => {
    const inner = `${PRELUDE}\n${body.join('\n')}`;
    switch (shape) {
      case 'generator':
        return `export async function* stream(url, signal, controller, responseBody) {\n${inner}\n}\n`;
      case 'method':
        return `export class Client {\n  async run(url, signal, controller, responseBody) {\n${inner}\n  }\n}\n`;
      case 'arrow':
        return `export const run = async (url, signal, controller, responseBody) => {\n${inner}\n};\n`;
      default:
        return `export async function run(url, signal, controller, responseBody) {\n${inner}\n}\n`;
    }
  });

const options = fc.record(
  {
    terminalPatterns: fc.subarray(['\\[done\\]', '(^|_)(done|end|stop)(_|$)', '^eos$', 'json_?rpc_(response|reply)', 'complete'], { minLength: 1 }),
    closeMethods: fc.subarray(['cancel', 'abort', 'aclose', 'destroy', 'return', 'terminate', 'close', 'dispose'], { minLength: 1 }),
    useTypes: fc.boolean(),
  },
  { requiredKeys: [] },
);

const plugin = { rules: { 'no-early-stream-close': asESLintRule(rule) } };

function lint(code: string, language: 'js' | 'ts', ruleOptions: Record<string, unknown>): Linter.LintMessage[] {
  return new Linter().verify(
    code,
    [
      {
        files: ['**/*.js', '**/*.ts'],
        plugins: { drainguard: plugin },
        rules: { 'drainguard/no-early-stream-close': ['error', ruleOptions] },
        languageOptions: language === 'ts' ? { parser: tsParser, sourceType: 'module' } : { ecmaVersion: 'latest', sourceType: 'module' },
      },
    ],
    { filename: `generated.${language}` },
  );
}

/** Offset in `code` of a 1-based line and column, or null when the position is outside the text. */
function offsetOf(lines: readonly string[], line: number, column: number): number | null {
  if (line < 1 || line > lines.length || column < 1 || column > lines[line - 1].length + 1) return null;
  let offset = 0;
  for (let index = 0; index < line - 1; index++) offset += lines[index].length + 1;
  return offset + column - 1;
}

/** Asserts what every report of the rule on `code` must satisfy; returns the number of reports. */
function checkReports(code: string, messages: readonly Linter.LintMessage[], closeMethods: readonly string[]): number {
  const lines = code.split('\n');
  const closeCall = new RegExp(`(?:\\.|\\?\\.)\\s*(?:${closeMethods.join('|')})\\s*\\(`);
  let reports = 0;
  for (const message of messages) {
    if (message.fatal) continue;
    expect(message.ruleId).toBe('drainguard/no-early-stream-close');
    const start = offsetOf(lines, message.line, message.column);
    const end = offsetOf(lines, message.endLine!, message.endColumn!);
    expect(start, `start ${message.line}:${message.column} inside the text`).not.toBeNull();
    expect(end, `end ${message.endLine}:${message.endColumn} inside the text`).not.toBeNull();
    expect(end!).toBeGreaterThan(start!);
    const text = code.slice(start!, end!);
    if (message.messageId === 'explicitClose') {
      // ESLint 10 gives no node type: the reported text says what the node is.
      expect(text, 'a call of a configured close method').toMatch(closeCall);
      expect(text.endsWith(')')).toBe(true);
    } else {
      expect(message.messageId).toBe('implicitClose');
      expect(text, 'a jump statement').toMatch(/^(break|continue|return)\b/);
      expect(code.slice(0, start!), 'an async loop before the jump').toMatch(/for await|__asyncValues/);
    }
    reports++;
  }
  return reports;
}

describe('no-early-stream-close on generated programs', () => {
  it('reports only closes and jumps inside the text, the same each time', () => {
    let parsed = 0;
    let total = 0;
    let reported = 0;
    fc.assert(
      fc.property(program, options, fc.constantFrom<'js' | 'ts'>('js', 'ts'), (code, ruleOptions, language) => {
        const messages = lint(code, language, ruleOptions);
        total++;
        if (!messages.some((message) => message.fatal)) parsed++;
        else if (process.env.FC_DEBUG) console.log(messages.find((m) => m.fatal)?.message, '\n', code.split('\n')[(messages.find((m) => m.fatal)?.line ?? 1) - 1]);
        reported += checkReports(code, messages, ruleOptions.closeMethods ?? DEFAULT_CLOSE_METHODS);
        expect(lint(code, language, ruleOptions), 'the same reports on a second run').toEqual(messages);
      }),
      { numRuns: propertyRuns(300), seed: Number(process.env.FC_SEED ?? 20240611), endOnFailure: true },
    );
    // The generator builds valid programs; the property must not pass by only feeding parse errors.
    expect(parsed / total).toBeGreaterThan(0.9);
    expect(reported).toBeGreaterThan(0);
  });

  it('also on deep nesting and long programs', () => {
    let reported = 0;
    fc.assert(
      fc.property(fc.array(statement(topContext, 4), { minLength: 20, maxLength: 40 }), (body) => {
        const code = `export async function run(url, signal, controller, responseBody) {\n${PRELUDE}\n${body.join('\n')}\n}\n`;
        const messages = lint(code, 'js', {});
        expect(messages.filter((message) => message.fatal)).toEqual([]);
        reported += checkReports(code, messages, DEFAULT_CLOSE_METHODS);
      }),
      { numRuns: propertyRuns(30), seed: Number(process.env.FC_SEED ?? 20240611) },
    );
    expect(reported).toBeGreaterThan(0);
  });
});
