// rules/python/tree.ts: helpers over the Python tree that know no flow.
import { describe, expect, it } from 'vitest';
import { collectBindings, forEachCall, isAsync, isStopIteration, named, statementOf } from '../../../rules/python/tree.js';
import { firstFunctionBody, lines, nodesOf } from './tree-nodes.js';

describe('named', () => {
  it('gives the named children without comments, and nothing for no node', async () => {
    const [args] = await nodesOf(lines('f(a,  # first', '  b)'), 'argument_list');
    expect(named(args).map((child) => child.text)).toEqual(['a', 'b']);
    expect(named(null)).toEqual([]);
  });
});

describe('isAsync', () => {
  it('is true of an async def, with or for and false of the plain ones', async () => {
    const code = lines('async def f():', '    async with a as b:', '        async for c in b:', '            pass', 'def g():', '    with a as b:', '        pass');
    const found = [...(await nodesOf(code, 'function_definition')), ...(await nodesOf(code, 'with_statement')), ...(await nodesOf(code, 'for_statement'))];
    expect(found.map((node) => `${node.type} ${isAsync(node)}`)).toEqual([
      'function_definition true',
      'function_definition false',
      'with_statement true',
      'with_statement false',
      'for_statement true',
    ]);
  });
});

describe('forEachCall', () => {
  it('visits calls innermost first, in source order, and not inside a lambda or a nested function', async () => {
    const [statement] = await nodesOf(lines('f(g(x), h(lambda: k()), m())'), 'expression_statement');
    const calls: string[] = [];
    forEachCall(statement, (call) => calls.push(call.text));
    expect(calls).toEqual(['g(x)', 'h(lambda: k())', 'm()', 'f(g(x), h(lambda: k()), m())']);
  });
});

describe('collectBindings', () => {
  it('takes assignments, walrus targets and with … as bindings of the body, marking those of an async with (not of a plain with inside one)', async () => {
    const body = await firstFunctionBody(
      lines(
        'async def f(client):',
        '    response = await client.send(request, stream=True)',
        '    if (line := next(lines)):',
        '        pass',
        '    async with client.stream("GET", url) as events:',
        '        with open(path) as out:',
        '            pass',
        '    def inner():',
        '        hidden = 1',
      ),
    );
    expect(collectBindings(body).map(({ target, value, asyncWith }) => `${target.text} = ${value.text}${asyncWith ? ' (async with)' : ''}`)).toEqual([
      'response = await client.send(request, stream=True)',
      'line = next(lines)',
      'events = client.stream("GET", url) (async with)',
      'out = open(path)',
    ]);
  });
});

describe('statementOf', () => {
  it('climbs to the statement that holds a node, up to its block or the module', async () => {
    const code = lines('def f(response):', '    if check(response.aclose()):', '        x = g(y)');
    const calls = await nodesOf(code, 'call');
    expect(calls.map((call) => `${call.text} -> ${statementOf(call).type}`)).toEqual([
      'check(response.aclose()) -> if_statement',
      'response.aclose() -> if_statement',
      'g(y) -> expression_statement',
    ]);
  });
});

describe('isStopIteration', () => {
  it('is true of raising StopIteration or StopAsyncIteration, called or not, and false of other raises', async () => {
    const raises = await nodesOf(lines('raise StopIteration', 'raise StopAsyncIteration()', 'raise ValueError("no")', 'raise'), 'raise_statement');
    expect(raises.map(isStopIteration)).toEqual([true, true, false, false]);
  });
});
